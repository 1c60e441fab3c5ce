package live_test

import (
	"context"
	"testing"

	"github.com/instrlab/instrlab/live"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// BenchmarkHandshake measures a whole in-memory connect (server session,
// client probe or initialize, close) with static instructions and with a
// live resolver that does no I/O: the cost of the mechanism itself (a
// goroutine and a timer per connect). cmd/persona has the benchmark with
// SQLite behind the resolver, with percentiles.
func BenchmarkHandshake(b *testing.B) {
	const text = "Answer in the coach's voice."
	for _, mode := range []string{"static", "live"} {
		for _, era := range []struct{ name, version string }{{"discover", ""}, {"initialize", legacyVersion}} {
			b.Run(mode+"/"+era.name, func(b *testing.B) {
				opts := &mcp.ServerOptions{}
				if mode == "static" {
					opts.Instructions = text
				}
				s := mcp.NewServer(impl, opts)
				if mode == "live" {
					live.Install(s, func(context.Context, live.Conn) (string, error) { return text, nil }, nil)
				}
				for b.Loop() {
					if got, _ := connectMemory(b, s, era.version); got != text {
						b.Fatalf("instructions = %q", got)
					}
				}
			})
		}
	}
}
