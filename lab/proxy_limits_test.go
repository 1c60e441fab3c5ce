package lab

import (
	"bytes"
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// TestLogStderrBounded: the first maxStderrLines lines of a server's stderr
// are logged, each cut to what the log keeps of a raw text, and the rest
// counted; every byte is still
// copied on, past a line longer than the limit too, so a server that writes
// a long line never blocks on a stderr nobody drains.
func TestLogStderrBounded(t *testing.T) {
	var in bytes.Buffer
	fmt.Fprintf(&in, "%s\n", strings.Repeat("x", 2<<20)) // longer than a logged line
	for i := range maxStderrLines + 9 {
		fmt.Fprintf(&in, "line %d\n", i)
	}
	in.WriteString("last, without a newline")
	want := in.String()
	var logBuf, copied bytes.Buffer
	NewProxy(NewMessageLog(&logBuf)).LogStderr(&in, &copied)
	if copied.String() != want {
		t.Errorf("copied %d bytes, want the %d sent, unchanged", copied.Len(), len(want))
	}
	entries := parseLog(t, logBuf.Bytes())
	var lines []Entry
	var notes []string
	for _, e := range entries {
		switch {
		case e.Kind == KindStderr && strings.HasSuffix(e.Note, "more stderr lines not logged"):
			notes = append(notes, e.Note)
		case e.Kind == KindStderr:
			lines = append(lines, e)
		}
	}
	if len(lines) != maxStderrLines {
		t.Fatalf("%d stderr lines logged, want %d", len(lines), maxStderrLines)
	}
	if first := lines[0]; first.Bytes != 2<<20 || len(first.Raw) != maxStderrLine {
		t.Errorf("the long line logged as %d of %d bytes, want %d of %d", len(first.Raw), first.Bytes, maxStderrLine, 2<<20)
	}
	if lines[1].Raw != "line 0" || lines[maxStderrLines-1].Raw != fmt.Sprintf("line %d", maxStderrLines-2) {
		t.Errorf("lines logged: %q … %q", lines[1].Raw, lines[maxStderrLines-1].Raw)
	}
	if len(notes) != 1 || notes[0] != "11 more stderr lines not logged" {
		t.Errorf("notes %q, want one counting the 11 lines not logged (9 numbered and the last)", notes)
	}
}

// TestProxyHTTPRequestTooLarge: a request body longer than the SDK's
// request limit gets 413 and reaches no server.
func TestProxyHTTPRequestTooLarge(t *testing.T) {
	reached := false
	upstream := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { reached = true })
	body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"x":"` + strings.Repeat("a", maxBody) + `"}}`
	status, _, entries := proxyExchange(t, upstream, "", body)
	if status != http.StatusRequestEntityTooLarge || reached {
		t.Errorf("status %d, upstream reached %v; want 413 and no upstream request", status, reached)
	}
	for _, e := range entries {
		if e.Dir == Recv {
			t.Errorf("the refused request was logged: %+v", e)
		}
	}
	status, _, _ = proxyExchange(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"jsonrpc":"2.0","id":1,"result":{}}`))
	}), "", ping)
	if status != http.StatusOK {
		t.Errorf("a small request: status %d, want 200", status)
	}
}
