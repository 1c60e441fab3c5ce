package lab

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

func parseLog(t *testing.T, data []byte) []Entry {
	t.Helper()
	var entries []Entry
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 64<<20)
	for n := 1; sc.Scan(); n++ {
		var e Entry
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Fatalf("log line %d: %v: %s", n, err, sc.Bytes())
		}
		entries = append(entries, e)
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("reading the log: %v", err)
	}
	return entries
}

// fullDisk accepts room bytes, then writes part of a line and fails, as a
// file on a full disk does; it can truncate, as a file can.
type fullDisk struct {
	bytes.Buffer
	room int
}

func (d *fullDisk) Write(p []byte) (int, error) {
	if d.Len()+len(p) <= d.room {
		return d.Buffer.Write(p)
	}
	n := d.room - d.Len()
	d.Buffer.Write(p[:n])
	return n, syscall.ENOSPC
}

func (d *fullDisk) Truncate(size int64) error { d.Buffer.Truncate(int(size)); return nil }

// TestLogWriteErrorStopsServer: when the log cannot be written, the server
// stops with that error, and the log holds only whole lines.
func TestLogWriteErrorStopsServer(t *testing.T) {
	disk := &fullDisk{room: 700}
	l, err := New(Config{Instructions: Instructions{Language: English, Length: 100}, Log: NewMessageLog(disk), Stderr: io.Discard})
	if err != nil {
		t.Fatal(err)
	}
	// A client that keeps sending: the server must stop on its own.
	in, w := io.Pipe()
	go func() {
		io.WriteString(w, initialize+"\n"+initialized+"\n")
		for i := 0; ; i++ {
			if _, err := fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%d,"method":"ping"}`+"\n", 10+i); err != nil {
				return
			}
		}
	}()
	err = l.ServeStdio(context.Background(), in, io.Discard)
	in.Close()
	if err == nil || !errors.Is(err, syscall.ENOSPC) || !strings.Contains(err.Error(), "writing message log") {
		t.Fatalf("ServeStdio = %v, want it stopped by the log's ENOSPC", err)
	}
	data := disk.Bytes()
	if len(data) == 0 || data[len(data)-1] != '\n' {
		t.Fatalf("log ends with a torn line: %.80q", data[max(0, len(data)-80):])
	}
	parseLog(t, data)
	if err := l.Log().Close(); err == nil {
		t.Error("Close reports no error after a failed write")
	}
}

// A kept body is written as json.Marshal writes it, whether it is copied
// (already compact, nothing to escape) or marshalled.
func TestLogBodyAsMarshal(t *testing.T) {
	bodies := []string{
		`{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}`,
		`{"a":"two words","b":"a \"quoted\" \\ word","c":[1,2.5,true,null]}`,
		`{"a": 1, "b" :[ 2 ,3 ]}`,
		"{\n\t\"a\":\r\n1}",
		`{"a":"<b>&</b>"}`,
		"{\"a\":\"line\u2028sep\u2029end\"}",
		"{\"a\":\"\u00e9\u20ac\"}", // € starts with E2 but is not escaped
		`{"a":"\\"}`,
		`["x",{"y":"\" "}]`,
		`null`,
	}
	at := time.Date(2026, 12, 1, 5, 0, 0, 0, time.UTC)
	for _, body := range bodies {
		var buf bytes.Buffer
		l := NewMessageLog(&buf)
		l.now = func() time.Time { return at }
		e := Entry{Dir: Send, Transport: "stdio", Kind: KindResponse, Method: "tools/list", ID: json.RawMessage(`7`), Bytes: len(body), Body: json.RawMessage(body)}
		l.Log(e)
		e.Time = at
		want, err := json.Marshal(e)
		if err != nil {
			t.Fatalf("%q: %v", body, err)
		}
		if got := buf.String(); got != string(want)+"\n" {
			t.Errorf("body %q logged as\n%s\nwant\n%s", body, got, want)
		}
		if err := l.Err(); err != nil {
			t.Errorf("body %q: %v", body, err)
		}
	}
}

// gatedDisk is a fullDisk whose writes each wait to be let through: a write
// under way stays under way until the test says.
type gatedDisk struct {
	mu      sync.Mutex
	disk    fullDisk
	writes  [][]byte      // each write's bytes
	entered chan struct{} // a write has begun
	release chan struct{} // let one write through
}

func newGatedDisk(room int) *gatedDisk {
	return &gatedDisk{disk: fullDisk{room: room}, entered: make(chan struct{}, 16), release: make(chan struct{})}
}

func (d *gatedDisk) Write(p []byte) (int, error) {
	d.entered <- struct{}{}
	<-d.release
	d.mu.Lock()
	defer d.mu.Unlock()
	d.writes = append(d.writes, bytes.Clone(p))
	return d.disk.Write(p)
}

func (d *gatedDisk) Truncate(size int64) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.disk.Truncate(size)
}

func (d *gatedDisk) bytes() []byte {
	d.mu.Lock()
	defer d.mu.Unlock()
	return bytes.Clone(d.disk.Bytes())
}

// queueBehindWrite logs "first" with a write that it holds under way, then
// logs each of notes from a goroutine of its own, in order (the next starts
// once the last has joined the queue), and returns a channel that gets the
// error of each of those Log calls as it returns.
func queueBehindWrite(t *testing.T, l *MessageLog, d *gatedDisk, notes []string) (firstDone, returned chan error) {
	t.Helper()
	firstDone, returned = make(chan error, 1), make(chan error, len(notes))
	go func() { firstDone <- l.LogAll(Entry{Kind: KindNotification, Note: "first"}) }()
	<-d.entered
	for i, note := range notes {
		go func() { returned <- l.LogAll(Entry{Kind: KindNotification, Note: note}) }()
		waitQueued(t, l, uint64(i+2))
	}
	return firstDone, returned
}

// waitQueued waits until n Log calls have joined l's queue.
func waitQueued(t *testing.T, l *MessageLog, n uint64) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
		l.mu.Lock()
		q := l.group.queued
		l.mu.Unlock()
		if q >= n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d Log calls queued, want %d", q, n)
		}
	}
}

func notesOf(t *testing.T, data []byte) []string {
	t.Helper()
	var notes []string
	for _, e := range parseLog(t, data) {
		notes = append(notes, e.Note)
	}
	return notes
}

// TestGroupCommit: lines logged while a write is under way wait for it,
// then go out together, in the order they were logged, in one write; no
// Log returns before its line is written.
func TestGroupCommit(t *testing.T) {
	d := newGatedDisk(1 << 20)
	l := NewMessageLog(d)
	notes := []string{"a", "b", "c", "d", "e"}
	firstDone, returned := queueBehindWrite(t, l, d, notes)
	select {
	case <-firstDone:
		t.Fatal("Log returned while its write was under way")
	case <-returned:
		t.Fatal("a queued Log returned before any write of its line")
	case <-time.After(20 * time.Millisecond):
	}
	d.release <- struct{}{} // the first write
	if err := <-firstDone; err != nil {
		t.Fatal(err)
	}
	<-d.entered // the group's write has begun: still nobody of the group returns
	select {
	case <-returned:
		t.Fatal("a Log returned while the write of its line was under way")
	case <-time.After(20 * time.Millisecond):
	}
	d.release <- struct{}{}
	for range notes {
		if err := <-returned; err != nil {
			t.Fatal(err)
		}
	}
	if len(d.writes) != 2 {
		t.Fatalf("%d writes for 1+%d lines, want 2", len(d.writes), len(notes))
	}
	if got := notesOf(t, d.writes[1]); !slices.Equal(got, notes) {
		t.Errorf("the group's write holds %q, want %q in that order", got, notes)
	}
	if got, want := notesOf(t, d.bytes()), append([]string{"first"}, notes...); !slices.Equal(got, want) {
		t.Errorf("log holds %q, want %q", got, want)
	}
	// LogAll's entries go out in their order, in one write.
	go func() { d.release <- struct{}{} }()
	if err := l.LogAll(Entry{Note: "x"}, Entry{Note: "y"}, Entry{Note: "z"}); err != nil {
		t.Fatal(err)
	}
	if got := notesOf(t, d.writes[2]); !slices.Equal(got, []string{"x", "y", "z"}) {
		t.Errorf("LogAll wrote %q in its write", got)
	}
}

// TestGroupCommitFailedWrite: a group's write that fails partway is cut
// back to its last whole line; every Log waiting returns with the error,
// and the log is stopped.
func TestGroupCommitFailedWrite(t *testing.T) {
	notes := []string{"a", "b", "c", "d"}
	line := func(note string) int {
		var buf bytes.Buffer
		l := NewMessageLog(&buf)
		l.Log(Entry{Kind: KindNotification, Note: note})
		return buf.Len()
	}
	// Room for "first", a and b, and half of c.
	room := line("first") + line("a") + line("b") + line("c")/2
	d := newGatedDisk(room)
	l := NewMessageLog(d)
	firstDone, returned := queueBehindWrite(t, l, d, notes)
	d.release <- struct{}{}
	if err := <-firstDone; err != nil {
		t.Fatal(err)
	}
	<-d.entered
	d.release <- struct{}{}
	for range notes {
		if err := <-returned; !errors.Is(err, syscall.ENOSPC) {
			t.Errorf("a Log of the failed group returned %v, want ENOSPC", err)
		}
	}
	if got, want := d.writes[1], room-line("first"); len(got) <= want {
		t.Fatalf("the group's write was %d bytes, want it to hold more than the %d that fit", len(got), want)
	}
	data := d.bytes()
	if got, want := notesOf(t, data), []string{"first", "a", "b"}; !slices.Equal(got, want) {
		t.Errorf("log holds %q, want %q (cut back to the last whole line)", got, want)
	}
	if data[len(data)-1] != '\n' {
		t.Errorf("log ends with a torn line: %q", data)
	}
	select {
	case <-l.Failed():
	default:
		t.Error("Failed not closed")
	}
	if err := l.LogAll(Entry{Note: "after"}); !errors.Is(err, syscall.ENOSPC) {
		t.Errorf("Log after the failure = %v, want the failure", err)
	}
	if len(d.writes) != 2 {
		t.Errorf("%d writes, want none after the failure", len(d.writes))
	}
}

// writtenNotes is a log writer that takes its time over each write and
// remembers which notes it wrote.
type writtenNotes struct {
	mu     sync.Mutex
	buf    bytes.Buffer
	notes  map[string]bool
	writes int
}

func (w *writtenNotes) Write(p []byte) (int, error) {
	time.Sleep(200 * time.Microsecond)
	w.mu.Lock()
	defer w.mu.Unlock()
	w.writes++
	for line := range bytes.Lines(p) {
		var e Entry
		if err := json.Unmarshal(line, &e); err != nil {
			return 0, fmt.Errorf("torn line written: %v", err)
		}
		w.notes[e.Note] = true
	}
	return w.buf.Write(p)
}

func (w *writtenNotes) has(note string) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.notes[note]
}

// TestGroupCommitConcurrent: concurrent loggers, lines large enough that
// groups outgrow the buffer kept between writes (maxSpare); each line is written
// before its Log returns, whole, once, and each logger's lines in its order.
func TestGroupCommitConcurrent(t *testing.T) {
	w := &writtenNotes{notes: map[string]bool{}}
	l := NewMessageLog(w)
	const loggers, lines = 8, 20
	var wg sync.WaitGroup
	for g := range loggers {
		wg.Go(func() {
			for i := range lines {
				note := fmt.Sprintf("%d/%d", g, i)
				body := `"` + strings.Repeat("x", 300000+(g*lines+i)%7*30000) + `"`
				l.Log(Entry{Kind: KindResponse, Note: note, Body: json.RawMessage(body)})
				if !w.has(note) {
					t.Errorf("Log(%s) returned before its line was written", note)
				}
			}
		})
	}
	wg.Wait()
	if err := l.Err(); err != nil {
		t.Fatal(err)
	}
	next := make([]int, loggers)
	for _, note := range notesOf(t, w.buf.Bytes()) {
		var g, i int
		fmt.Sscanf(note, "%d/%d", &g, &i)
		if i != next[g] {
			t.Fatalf("logger %d: line %d where %d was due", g, i, next[g])
		}
		next[g]++
	}
	for g, n := range next {
		if n != lines {
			t.Errorf("logger %d: %d lines in the log, want %d", g, n, lines)
		}
	}
	if w.writes >= loggers*lines {
		t.Errorf("%d writes for %d lines: no group formed", w.writes, loggers*lines)
	}
	t.Logf("%d lines in %d writes", loggers*lines, w.writes)
}

// TestMessageLogNoticeBound: past MaxNotices notifications of one method
// and direction the log counts them, and Close logs how many it left out;
// other notifications and messages are logged as ever.
func TestMessageLogNoticeBound(t *testing.T) {
	var b bytes.Buffer
	l := NewMessageLog(&b)
	for range MaxNotices + 5 {
		l.Log(Entry{Dir: Send, Kind: KindNotification, Method: "notifications/message"})
	}
	l.Log(Entry{Dir: Send, Kind: KindNotification, Method: "notifications/progress"})
	l.Log(Entry{Dir: Recv, Kind: KindNotification, Method: "notifications/message"}) // the other direction
	l.Log(Entry{Dir: Recv, Kind: KindRequest, Method: "ping", ID: json.RawMessage("1")})
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	count := map[string]int{}
	var dropped Entry
	for line := range strings.Lines(b.String()) {
		var e Entry
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			t.Fatal(err)
		}
		count[e.Dir+" "+e.Kind+" "+e.Method]++
		if e.Kind == KindDropped {
			dropped = e
		}
	}
	want := map[string]int{
		"send notification notifications/message":  MaxNotices,
		"send notification notifications/progress": 1,
		"recv notification notifications/message":  1,
		"recv request ping":                        1,
		"send dropped notifications/message":       1,
	}
	if !maps.Equal(count, want) {
		t.Errorf("lines %v, want %v", count, want)
	}
	if dropped.Count != 5 || !strings.HasPrefix(dropped.Note, "5 more notifications/message notifications after the first 1000") {
		t.Errorf("dropped entry's note %q", dropped.Note)
	}
}
