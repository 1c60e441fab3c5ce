package main

import (
	"fmt"
	"net"
	"net/http"
	"net/url"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// httpHandler serves s over Streamable HTTP at /mcp.
//
// Stateless (the default) serves both eras: 2026-07-28 clients discover and
// call without a session, and legacy clients initialize on a throwaway
// session. Stateful keeps an Mcp-Session-Id session per legacy client and
// serves no 2026-07-28 client, which falls back to initialize. In both, one
// server serves all connects and each connect resolves its own instructions.
func httpHandler(s *mcp.Server, stateless bool) http.Handler {
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, &mcp.StreamableHTTPOptions{Stateless: stateless})
	mux := http.NewServeMux()
	mux.Handle("/mcp", checkOrigin(h))
	return mux
}

// checkOrigin rejects a request whose Origin is not a loopback address with
// 403, as the Streamable HTTP transport requires; a page on another site
// must not drive a local server. Requests without Origin (not from a
// browser) pass. The go-sdk handler separately rejects non-loopback Host
// headers (DNS rebinding).
func checkOrigin(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if o := r.Header.Get("Origin"); o != "" && !loopbackOrigin(o) {
			http.Error(w, fmt.Sprintf("forbidden origin %q", o), http.StatusForbidden)
			return
		}
		next.ServeHTTP(w, r)
	})
}

func loopbackOrigin(origin string) bool {
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" {
		return false
	}
	return isLoopback(u.Hostname())
}

func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// listenAddr fills in the loopback host of an -http address and rejects
// other hosts: the server is for local clients.
func listenAddr(addr string) (string, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "", usageError{Msg: fmt.Sprintf("-http %q: %v", addr, err)}
	}
	if host == "" {
		host = "127.0.0.1"
	}
	if !isLoopback(host) {
		return "", usageError{Msg: fmt.Sprintf("-http %q: the host must be a loopback address", addr)}
	}
	return net.JoinHostPort(host, port), nil
}
