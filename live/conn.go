package live

import (
	"context"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A Resolver returns the instructions for one connecting client. It runs on
// every connect, with a context that expires at the deadline of
// [Options.Deadline]. An empty string means no instructions.
type Resolver func(ctx context.Context, c Conn) (string, error)

// Era is the protocol era a client connects with.
type Era int

const (
	// Legacy clients open a session with initialize (2025-11-25 and earlier).
	Legacy Era = iota + 1
	// Modern clients probe with server/discover (2026-07-28).
	Modern
)

func (e Era) String() string {
	switch e {
	case Legacy:
		return "legacy"
	case Modern:
		return "modern"
	}
	return "unknown"
}

// Conn is what the server knows about a connecting client when it resolves
// the instructions.
type Conn struct {
	Era Era
	// ProtocolVersion is the negotiated version for legacy clients and the
	// requested one for modern clients.
	ProtocolVersion string
	// ClientInfo is the client's self-description; it may be nil.
	ClientInfo *mcp.Implementation
	// SessionID is the transport's session ID: the Mcp-Session-Id of a
	// stateful HTTP session, empty on stdio and stateless HTTP.
	SessionID string
	// Header is the header of the HTTP request that carried the handshake,
	// nil on other transports. The go-sdk passes the header, not the
	// request. Resolvers must not modify it.
	Header http.Header
}

// connOf describes the client behind req, a request for initialize or
// server/discover whose reply has already been built.
func connOf(req mcp.Request, era Era, version string) Conn {
	c := Conn{Era: era, ProtocolVersion: version}
	switch r := req.(type) {
	case *mcp.ServerRequest[*mcp.InitializeParams]:
		if r.Params != nil {
			c.ClientInfo = r.Params.ClientInfo
		}
		if r.Session != nil {
			c.SessionID = r.Session.ID()
		}
	case *mcp.ServerRequest[*mcp.DiscoverParams]:
		c.ClientInfo = r.ClientInfo()
		if c.ProtocolVersion == "" {
			c.ProtocolVersion = r.ProtocolVersion()
		}
		if r.Session != nil {
			c.SessionID = r.Session.ID()
		}
	}
	if x := req.GetExtra(); x != nil {
		c.Header = x.Header
	}
	return c
}
