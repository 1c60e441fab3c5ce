package lab

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
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
