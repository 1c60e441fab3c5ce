package live_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/instrlab/instrlab/live"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// BenchmarkHandshake measures a whole in-memory connect (server session,
// client probe or initialize, close) with static instructions and with a
// live resolver that does no I/O: the cost of the mechanism itself. It
// reports the median and 99th percentile of single handshakes.
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
				var times []time.Duration
				for b.Loop() {
					start := time.Now()
					if got, _ := connectMemory(b, s, era.version); got != text {
						b.Fatalf("instructions = %q", got)
					}
					times = append(times, time.Since(start))
				}
				reportPercentiles(b, times)
			})
		}
	}
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
