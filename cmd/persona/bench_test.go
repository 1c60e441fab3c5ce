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

// BenchmarkHandshake measures whole in-memory connects (session, probe or
// initialize, close) to the persona server with SQLite behind it. Each
// iteration connects once to the static server and once to the live one,
// in alternating order, so that both see the same machine load; it reports
// the median and 99th percentile of each, and the added median.
func BenchmarkHandshake(b *testing.B) {
	for _, era := range []struct{ name, version string }{{"discover", ""}, {"initialize", legacyVersion}} {
		b.Run(era.name, func(b *testing.B) {
			st := testStore(b, true)
			servers := map[string]*mcp.Server{"static": benchServer(b, st, "static"), "live": benchServer(b, st, "live")}
			want := builtIn(b, coach.DefaultName).Text
			times := map[string][]time.Duration{}
			order := []string{"static", "live"}
			for b.Loop() {
				for _, mode := range order {
					start := time.Now()
					got, err := handshake(servers[mode], era.version)
					times[mode] = append(times[mode], time.Since(start))
					if err != nil || got != want {
						b.Fatalf("%s handshake: instructions %q, error %v; want %q", mode, got, err, want)
					}
				}
				order[0], order[1] = order[1], order[0]
			}
			static, live := percentiles(times["static"]), percentiles(times["live"])
			b.ReportMetric(float64(static.p50), "static-p50-ns")
			b.ReportMetric(float64(static.p99), "static-p99-ns")
			b.ReportMetric(float64(live.p50), "live-p50-ns")
			b.ReportMetric(float64(live.p99), "live-p99-ns")
			b.ReportMetric(float64(live.p50-static.p50), "added-p50-ns")
		})
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

type quantiles struct{ p50, p99 time.Duration }

// percentiles returns the median and 99th percentile of times.
func percentiles(times []time.Duration) quantiles {
	if len(times) == 0 {
		return quantiles{}
	}
	slices.Sort(times)
	at := func(q float64) time.Duration { return times[int(q*float64(len(times)-1))] }
	return quantiles{at(0.50), at(0.99)}
}
