package live

import (
	"context"
	"slices"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// modernVersion is the first protocol version that opens with
// server/discover instead of initialize.
const modernVersion = "2026-07-28"

// Install adds live instructions to s: every initialize and server/discover
// reply carries the text r resolves for that connect. Leave
// [mcp.ServerOptions.Instructions] empty; Install replaces it. Install does no
// I/O and does not call r.
func Install(s *mcp.Server, r Resolver, opts *Options) {
	s.AddReceivingMiddleware(Middleware(r, opts))
}

// Middleware returns the receiving middleware that [Install] adds, for
// callers that order their middleware themselves. It resolves after the
// server has built its reply, so a rejected handshake costs no resolution.
//
// A server/discover reply with live instructions is marked cacheScope
// "private": the text belongs to one connection and no shared cache may
// serve it to another client. A discover reply that offers no modern
// protocol version (go-sdk's stateful HTTP handler) is left alone, since the
// client will fall back to initialize and resolve there.
func Middleware(r Resolver, opts *Options) mcp.Middleware {
	cfg := newConfig(opts)
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			res, err := next(ctx, method, req)
			if err != nil {
				return res, err
			}
			switch res := res.(type) {
			case *mcp.InitializeResult:
				c := connOf(req, Legacy, res.ProtocolVersion)
				res.Instructions = cfg.instructions(ctx, r, c)
			case *mcp.DiscoverResult:
				if !slices.ContainsFunc(res.SupportedVersions, isModern) {
					break
				}
				c := connOf(req, Modern, "")
				res.Instructions = cfg.instructions(ctx, r, c)
				res.CacheScope = "private"
			}
			return res, err
		}
	}
}

func isModern(version string) bool { return version >= modernVersion }
