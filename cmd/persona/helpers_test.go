package main

import (
	"context"
	"net/http/httptest"
	"path/filepath"
	"sync"
	"testing"

	"github.com/instrlab/instrlab/cmd/persona/internal/coach"
	"github.com/instrlab/instrlab/live"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// legacyVersion forces the go-sdk client to initialize instead of probing
// with server/discover.
const legacyVersion = "2025-11-25"

// testStore opens a store in a fresh file, with or without the schema.
func testStore(t testing.TB, initSchema bool) *coach.Store {
	t.Helper()
	st, err := coach.Open(filepath.Join(t.TempDir(), "persona.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	if initSchema {
		if err := st.InitSchema(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	return st
}

// reports collects what live reports, for a test to inspect.
type reports struct {
	mu   sync.Mutex
	errs []error
}

func (r *reports) report(c live.Conn, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.errs = append(r.errs, err)
}

func (r *reports) all() []error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]error(nil), r.errs...)
}

// connectMemory connects a client to s in memory; the session is closed at
// the end of the test.
func connectMemory(t testing.TB, s *mcp.Server, version string) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := s.Connect(ctx, st, nil)
	if err != nil {
		t.Fatalf("server connect: %v", err)
	}
	t.Cleanup(func() { ss.Close() })
	return connect(t, ct, version)
}

// connectHTTP connects a client to the Streamable HTTP endpoint url.
func connectHTTP(t testing.TB, url, version string) *mcp.ClientSession {
	t.Helper()
	return connect(t, &mcp.StreamableClientTransport{Endpoint: url, DisableStandaloneSSE: true}, version)
}

func connect(t testing.TB, tr mcp.Transport, version string) *mcp.ClientSession {
	t.Helper()
	client := mcp.NewClient(&mcp.Implementation{Name: "test-client", Version: "v0"}, nil)
	cs, err := client.Connect(context.Background(), tr, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatalf("client connect: %v", err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// serveHTTP serves the persona server's HTTP handler on loopback and
// returns the /mcp endpoint.
func serveHTTP(t testing.TB, st *coach.Store, opts *live.Options, stateless bool) string {
	t.Helper()
	srv := httptest.NewServer(httpHandler(newServer(st, opts), stateless))
	t.Cleanup(srv.Close)
	return srv.URL + "/mcp"
}

func builtIn(t testing.TB, name string) coach.Persona {
	t.Helper()
	p, ok := coach.BuiltIn(name)
	if !ok {
		t.Fatalf("no built-in persona %q", name)
	}
	return p
}
