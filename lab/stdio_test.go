package lab

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// sendLog is a message log writer that notes the ids of the sent lines it
// wrote, in order, taking its time over each write.
type sendLog struct {
	mu        sync.Mutex
	ids       []string
	logged    map[string]bool
	recvAt    map[string]int // the line a request's id was logged on
	sendAt    map[string]int // the line its reply was logged on
	lines     int
	recvGroup int // the most requests logged in one write
}

func (w *sendLog) Write(p []byte) (int, error) {
	time.Sleep(100 * time.Microsecond)
	w.mu.Lock()
	defer w.mu.Unlock()
	recvs := 0
	for line := range strings.Lines(string(p)) {
		var e Entry
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			return 0, err
		}
		w.lines++
		switch e.Dir {
		case Send:
			w.ids = append(w.ids, string(e.ID))
			w.logged[string(e.ID)] = true
			w.sendAt[string(e.ID)] = w.lines
		case Recv:
			recvs++
			w.recvAt[string(e.ID)] = w.lines
		}
	}
	w.recvGroup = max(w.recvGroup, recvs)
	return len(p), nil
}

func (w *sendLog) has(id string) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.logged[id]
}

// countingWriter counts the writes to the client.
type countingWriter struct {
	w      io.Writer
	mu     sync.Mutex
	writes int
}

func (c *countingWriter) Write(p []byte) (int, error) {
	c.mu.Lock()
	c.writes++
	c.mu.Unlock()
	return c.w.Write(p)
}

// TestStdioRepliesLoggedFirst: under pipelined requests, which the
// transport logs in groups before it hands them on, and whose answers the
// SDK writes concurrently and the transport writes in groups, every request
// is logged before its reply, every reply is in the log before the client
// can read it, and the log's order of replies is the wire's.
func TestStdioRepliesLoggedFirst(t *testing.T) {
	log := &sendLog{logged: map[string]bool{}, recvAt: map[string]int{}, sendAt: map[string]int{}}
	l, err := New(Config{Instructions: Instructions{Language: English, Length: 300}, Log: NewMessageLog(log), Stderr: io.Discard})
	if err != nil {
		t.Fatal(err)
	}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	out := &countingWriter{w: outW}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- l.ServeStdio(ctx, inR, out); outW.Close() }()
	defer func() { inW.Close(); cancel(); <-done }()
	const n = 500
	go func() {
		var b strings.Builder
		b.WriteString(initialize + "\n" + initialized + "\n")
		for i := range n {
			fmt.Fprintf(&b, `{"jsonrpc":"2.0","id":%d,"method":"tools/list"}`+"\n", 100+i)
		}
		io.WriteString(inW, b.String())
	}()
	sc := bufio.NewScanner(outR)
	sc.Buffer(nil, 1<<20)
	var wire []string
	for len(wire) < n+1 && sc.Scan() {
		var r struct{ ID json.RawMessage }
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("reply %q: %v", sc.Text(), err)
		}
		if !log.has(string(r.ID)) {
			t.Fatalf("reply %s reached the client before the log held it", r.ID)
		}
		wire = append(wire, string(r.ID))
	}
	if len(wire) != n+1 {
		t.Fatalf("%d replies, want %d: %v", len(wire), n+1, sc.Err())
	}
	log.mu.Lock()
	defer log.mu.Unlock()
	if !slices.Equal(log.ids, wire) {
		t.Errorf("log's order of replies differs from the wire's:\nlog  %v\nwire %v", log.ids, wire)
	}
	for _, id := range wire {
		if log.recvAt[id] == 0 || log.recvAt[id] > log.sendAt[id] {
			t.Errorf("request %s logged on line %d, its reply on line %d", id, log.recvAt[id], log.sendAt[id])
		}
	}
	// The requests came in one write: they are logged in groups.
	if log.recvGroup < 2 {
		t.Errorf("at most %d requests logged in one write", log.recvGroup)
	}
	out.mu.Lock()
	defer out.mu.Unlock()
	if out.writes >= len(wire) {
		t.Errorf("%d writes for %d replies: none written together", out.writes, len(wire))
	}
	t.Logf("%d replies in %d writes; up to %d requests logged in one write", len(wire), out.writes, log.recvGroup)
}

// serveInput serves input to a lab of cfg over stdio, logging to a buffer,
// and returns the replies and the log once the server has stopped at the
// end of the input; a server still serving 10 seconds on fails the test.
func serveInput(t *testing.T, cfg Config, input string) ([]reply, []Entry) {
	t.Helper()
	var out, logBuf bytes.Buffer
	cfg.Log, cfg.Stderr = NewMessageLog(&logBuf), io.Discard
	l, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := l.ServeStdio(ctx, strings.NewReader(input), &out); err != nil {
		if ctx.Err() != nil {
			t.Fatal("server did not exit at the end of its input")
		}
		t.Errorf("server exit: %v", err)
	}
	return parseReplies(t, out.String()), parseLog(t, logBuf.Bytes())
}

// answers checks that replies are one error with code, to the line before
// the initialize, and the initialize's result, in either order: the server
// answered the bad line and kept serving.
func answers(t *testing.T, replies []reply, code int) {
	t.Helper()
	var codes []int
	for _, r := range replies {
		switch {
		case string(r.ID) == "1" && r.Result != nil:
			codes = append(codes, 0)
		case r.Error != nil:
			codes = append(codes, r.Error.Code)
		default:
			t.Errorf("reply %s: neither the initialize result nor an error", r.ID)
		}
	}
	slices.Sort(codes)
	if diff := cmp.Diff([]int{code, 0}, codes); diff != "" {
		t.Errorf("replies mismatch (-want +got):\n%s", diff)
	}
}

// TestStdioHugeLine: a line longer than the 16 MiB limit is answered with
// -32700 and logged with its size and the start of its text, and the
// server keeps serving.
func TestStdioHugeLine(t *testing.T) {
	huge := `{"jsonrpc":"2.0","id":5,"method":"ping","params":{"pad":"` + strings.Repeat("x", maxLineLength) + `"}}`
	replies, entries := serveInput(t, Config{}, huge+"\n"+initialize+"\n")
	answers(t, replies, -32700)
	var sawHuge bool
	for _, e := range entries {
		if e.Kind == KindInvalid && e.Bytes == len(huge) {
			sawHuge = true
			if !strings.HasPrefix(e.Raw, `{"jsonrpc":"2.0","id":5`) {
				t.Errorf("huge line's raw start not logged: %.40q", e.Raw)
			}
		}
	}
	if !sawHuge {
		t.Error("the huge line is not in the log with its size")
	}
}

// TestStdioInvalidUTF8: a line that is not UTF-8 is answered with -32700
// and logged raw, and the server keeps serving.
func TestStdioInvalidUTF8(t *testing.T) {
	replies, entries := serveInput(t, Config{}, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":{\"x\":\"\xff\xfe\"}}\n"+initialize+"\n")
	answers(t, replies, -32700)
	if entries[0].Kind != KindInvalid || entries[0].Raw == "" {
		t.Errorf("invalid UTF-8 line not logged raw: %+v", entries[0])
	}
}

// TestStdioEOFMidLine: input ends inside a line. The partial line is
// answered as malformed, the request before it is answered, and the
// server exits cleanly.
func TestStdioEOFMidLine(t *testing.T) {
	partial := `{"jsonrpc":"2.0","id":2,"meth`
	replies, entries := serveInput(t, Config{}, initialize+"\n"+partial)
	answers(t, replies, -32700)
	if !slices.ContainsFunc(entries, func(e Entry) bool { return e.Kind == KindInvalid && e.Raw == partial }) {
		t.Error("the partial line is not in the log")
	}
}
