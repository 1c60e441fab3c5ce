package bench

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"runtime"
	"sort"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/instrlab/instrlab/lab"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// serveLines sends lines to serve over OS pipes, reads n replies, and
// returns them sorted by id, while sampling the number of goroutines.
func serveLines(t *testing.T, serve func(ctx context.Context, r io.Reader, w io.Writer) error, lines []string, n int) (replies []string, peakGoroutines int) {
	t.Helper()
	inR, inW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- serve(ctx, inR, outW); outW.Close() }()
	var stop atomic.Bool
	var peak atomic.Int64
	go func() {
		for !stop.Load() {
			if g := int64(runtime.NumGoroutine()); g > peak.Load() {
				peak.Store(g)
			}
			time.Sleep(100 * time.Microsecond)
		}
	}()
	go io.WriteString(inW, joinLines(lines))
	out := bufio.NewReaderSize(outR, 1<<20)
	for range n {
		line, err := out.ReadBytes('\n')
		if err != nil {
			t.Fatalf("after %d replies: %v", len(replies), err)
		}
		replies = append(replies, string(bytes.TrimSuffix(line, []byte("\n"))))
	}
	stop.Store(true)
	inW.Close()
	cancel()
	<-done
	inR.Close()
	outR.Close()
	sort.Slice(replies, func(i, j int) bool { return idOf(replies[i]) < idOf(replies[j]) })
	return replies, int(peak.Load())
}

func joinLines(lines []string) string {
	var b bytes.Buffer
	for _, l := range lines {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	return b.String()
}

func idOf(line string) string {
	var m struct{ ID json.RawMessage }
	json.Unmarshal([]byte(line), &m)
	return fmt.Sprintf("%20s", m.ID)
}

// TestLabStdioWritesWhatSDKWrites: the lab's stdio transport writes its
// replies (encoded without the SDK's second pass where it can) byte for
// byte as the SDK's own transport does, for the same server.
func TestLabStdioWritesWhatSDKWrites(t *testing.T) {
	lines := []string{initialize[:len(initialize)-1], initialized[:len(initialized)-1]}
	for i := range 20 {
		lines = append(lines, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/list"}`, 100+i))
	}
	lines = append(lines,
		`{"jsonrpc":"2.0","id":"s-1","method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":-7,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":200,"method":"tools/call","params":{"name":"lookup_part","arguments":{"part":"m3-0412"}}}`,
		`{"jsonrpc":"2.0","id":201,"method":"tools/call","params":{"name":"lookup_part","arguments":{"part":"XX-0000"}}}`,
		`{"jsonrpc":"2.0","id":202,"method":"tools/call","params":{"name":"no_such_tool"}}`,
	)
	n := len(lines) - 1 // every line but the notification is answered
	in, err := lab.ParseInstructions("ascii:1000")
	if err != nil {
		t.Fatal(err)
	}
	l, err := lab.New(lab.Config{Instructions: in})
	if err != nil {
		t.Fatal(err)
	}
	got, _ := serveLines(t, l.ServeStdio, lines, n)
	want, _ := serveLines(t, func(ctx context.Context, r io.Reader, w io.Writer) error {
		return l.Server().Run(ctx, &mcp.IOTransport{Reader: io.NopCloser(r), Writer: nopWriteCloser{w}})
	}, lines, n)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("replies mismatch (-SDK transport +lab transport):\n%s", diff)
	}
}

// TestLabStdioBoundsInFlight: with thousands of pipelined requests, the lab
// hands the SDK only a few at a time, so that the SDK does not run a
// goroutine for each of them at once.
func TestLabStdioBoundsInFlight(t *testing.T) {
	const n = 2000
	lines := []string{initialize[:len(initialize)-1], initialized[:len(initialized)-1]}
	for i := range n {
		lines = append(lines, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/list"}`, 2+i))
	}
	in, err := lab.ParseInstructions("ascii:1000")
	if err != nil {
		t.Fatal(err)
	}
	l, err := lab.New(lab.Config{Instructions: in})
	if err != nil {
		t.Fatal(err)
	}
	_, peak := serveLines(t, l.ServeStdio, lines, n+1)
	// 64 requests with the SDK, and a few dozen goroutines of the SDK, the
	// lab and this test.
	if peak > 200 {
		t.Errorf("peak of %d goroutines while serving %d pipelined requests, want at most 200", peak, n)
	}
}
