package main

import (
	"context"
	"net/http/httptest"
	"slices"
	"testing"
	"time"

	"github.com/instrlab/instrlab/cmd/persona/internal/coach"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// benchServer returns the persona server over st with live instructions, or
// with the active persona read once and fixed as static instructions: the
// seed's frozen-at-build design, for comparison.
func benchServer(b *testing.B, st *coach.Store, mode string) *mcp.Server {
	if mode == "live" {
		return newServer(st, nil)
	}
	p, err := st.Active(context.Background())
	if err != nil {
		b.Fatal(err)
	}
	s := mcp.NewServer(impl, &mcp.ServerOptions{Instructions: p.Text})
	addFeatures(s, st)
	return s
}

// BenchmarkHandshake measures one whole in-memory connect (session, probe or
// initialize, close) to the persona server with SQLite behind it, static
// against live, and reports the median and 99th percentile handshake.
func BenchmarkHandshake(b *testing.B) {
	for _, mode := range []string{"static", "live"} {
		for _, era := range []struct{ name, version string }{{"discover", ""}, {"initialize", legacyVersion}} {
			b.Run(mode+"/"+era.name, func(b *testing.B) {
				st := testStore(b, true)
				s := benchServer(b, st, mode)
				want := builtIn(b, coach.DefaultName).Text
				var times []time.Duration
				for b.Loop() {
					start := time.Now()
					got, err := handshake(s, era.version)
					times = append(times, time.Since(start))
					if err != nil || got != want {
						b.Fatalf("handshake: instructions %q, error %v; want %q", got, err, want)
					}
				}
				reportPercentiles(b, times)
			})
		}
	}
}

// BenchmarkHTTPSessions measures new Streamable HTTP sessions per second
// (connect and close, eight clients at a time) on one persona server, static
// against live, on the stateless handler (a 2026-07-28 client: one
// server/discover) and the stateful one (initialize, initialized, DELETE).
func BenchmarkHTTPSessions(b *testing.B) {
	for _, handler := range []string{"stateless", "stateful"} {
		for _, mode := range []string{"static", "live"} {
			b.Run(handler+"/"+mode, func(b *testing.B) {
				st := testStore(b, true)
				srv := httptest.NewServer(httpHandler(benchServer(b, st, mode), handler == "stateless"))
				defer srv.Close()
				url := srv.URL + "/mcp"
				want := builtIn(b, coach.DefaultName).Text
				client := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "v0"}, nil)
				b.SetParallelism(4)
				b.RunParallel(func(pb *testing.PB) {
					for pb.Next() {
						tr := &mcp.StreamableClientTransport{Endpoint: url, DisableStandaloneSSE: true}
						cs, err := client.Connect(context.Background(), tr, nil)
						if err != nil {
							b.Error(err)
							return
						}
						got := cs.InitializeResult().Instructions
						cs.Close()
						if got != want {
							b.Errorf("instructions = %q, want %q", got, want)
							return
						}
					}
				})
				b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "sessions/s")
			})
		}
	}
}

// handshake connects a client to s in memory, closes both sessions and
// returns the instructions the client received.
func handshake(s *mcp.Server, version string) (string, error) {
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := s.Connect(ctx, st, nil)
	if err != nil {
		return "", err
	}
	defer ss.Close()
	client := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "v0"}, nil)
	cs, err := client.Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		return "", err
	}
	defer cs.Close()
	return cs.InitializeResult().Instructions, nil
}

// reportPercentiles adds the median and 99th percentile of times to the
// benchmark's output, in nanoseconds.
func reportPercentiles(b *testing.B, times []time.Duration) {
	if len(times) == 0 {
		return
	}
	slices.Sort(times)
	at := func(q float64) time.Duration { return times[int(q*float64(len(times)-1))] }
	b.ReportMetric(float64(at(0.50)), "p50-ns")
	b.ReportMetric(float64(at(0.99)), "p99-ns")
}
