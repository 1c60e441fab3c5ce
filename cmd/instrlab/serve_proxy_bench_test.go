package main

import (
	"bufio"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// BenchmarkProxyRoundTrip times one ping at a time (request and reply, two
// messages) from a client to serve lab, directly and through serve proxy,
// both logging, as real processes over pipes:
//
//	go test -run '^$' -bench ProxyRoundTrip -benchtime 2000x ./cmd/instrlab
//
// median-µs is the median round trip; the proxy's cost per message is half
// the difference between the two.
func BenchmarkProxyRoundTrip(b *testing.B) {
	b.Run("direct", func(b *testing.B) {
		benchRoundTrip(b, exec.Command(binary, "serve", "lab", "-log", filepath.Join(b.TempDir(), "lab.jsonl")))
	})
	b.Run("proxy", func(b *testing.B) {
		dir := b.TempDir()
		benchRoundTrip(b, exec.Command(binary, "serve", "proxy", "-log", filepath.Join(dir, "proxy.jsonl"), "--",
			binary, "serve", "lab", "-log", filepath.Join(dir, "lab.jsonl")))
	})
}

func benchRoundTrip(b *testing.B, cmd *exec.Cmd) {
	stdin, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	defer func() { stdin.Close(); cmd.Wait() }()
	r := bufio.NewReader(out)
	roundTrip := func(line string) {
		if _, err := io.WriteString(stdin, line+"\n"); err != nil {
			b.Fatal(err)
		}
		if _, err := r.ReadString('\n'); err != nil {
			b.Fatal(err)
		}
	}
	roundTrip(initLine)
	io.WriteString(stdin, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
	times := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := range b.N {
		start := time.Now()
		roundTrip(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"ping"}`, i+10))
		times = append(times, time.Since(start))
	}
	b.StopTimer()
	slices.Sort(times)
	b.ReportMetric(float64(times[len(times)/2].Nanoseconds())/1e3, "median-µs")
}
