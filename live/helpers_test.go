package live_test

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/instrlab/instrlab/live"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// legacyVersion forces the go-sdk client to open with initialize; the empty
// version lets it probe with server/discover first.
const legacyVersion = "2025-11-25"

var impl = &mcp.Implementation{Name: "test", Version: "v0"}

// recorder is a Resolver that returns a fixed text and remembers each Conn.
type recorder struct {
	text string
	mu   sync.Mutex
	seen []live.Conn
}

func (r *recorder) resolve(ctx context.Context, c live.Conn) (string, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.seen = append(r.seen, c)
	return r.text, nil
}

func (r *recorder) eras() []live.Era {
	r.mu.Lock()
	defer r.mu.Unlock()
	var eras []live.Era
	for _, c := range r.seen {
		eras = append(eras, c.Era)
	}
	return eras
}

// connectMemory connects a go-sdk client to s over in-memory transports and
// returns the instructions it received, with the client's raw traffic.
func connectMemory(t testing.TB, s *mcp.Server, version string) (instructions, traffic string) {
	t.Helper()
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := s.Connect(ctx, st, nil)
	if err != nil {
		t.Fatalf("server connect: %v", err)
	}
	defer ss.Close()
	var log bytes.Buffer
	client := mcp.NewClient(&mcp.Implementation{Name: "client", Version: "v0"}, nil)
	cs, err := client.Connect(ctx, &mcp.LoggingTransport{Transport: ct, Writer: &log}, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatalf("client connect: %v", err)
	}
	defer cs.Close()
	return cs.InitializeResult().Instructions, log.String()
}

// serveHTTP serves s over Streamable HTTP on a loopback test server.
func serveHTTP(t testing.TB, s *mcp.Server, stateless bool) string {
	t.Helper()
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, &mcp.StreamableHTTPOptions{Stateless: stateless})
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv.URL
}

// connectHTTP connects a go-sdk client to url and returns its instructions.
func connectHTTP(t testing.TB, url, version string) string {
	t.Helper()
	ctx := context.Background()
	client := mcp.NewClient(&mcp.Implementation{Name: "client", Version: "v0"}, nil)
	tr := &mcp.StreamableClientTransport{Endpoint: url, DisableStandaloneSSE: true}
	cs, err := client.Connect(ctx, tr, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatalf("client connect %s: %v", url, err)
	}
	defer cs.Close()
	return cs.InitializeResult().Instructions
}
