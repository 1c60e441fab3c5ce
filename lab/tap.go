package lab

import (
	"bytes"
	"fmt"
	"net/http"
	"strings"
	"sync"
)

// A tapWriter passes a response through and reports each JSON-RPC message
// in it: the whole body for application/json, each event's data for
// text/event-stream. It holds at most maxKeptBody of one message: a longer
// one (a JSON body, or an SSE event that goes on and on) is passed on
// whole and reported by its size and start to long.
type tapWriter struct {
	http.ResponseWriter
	sent func([]byte)
	long func(size int, start []byte)
	mu   sync.Mutex
	sse  sseTap
	body []byte // a JSON body, up to maxKeptBody+1 bytes
	size int    // the JSON body's length
	// status is the answer's HTTP status, once written.
	status int
}

func (t *tapWriter) WriteHeader(code int) {
	t.mu.Lock()
	if t.status == 0 {
		t.status = code
	}
	t.mu.Unlock()
	t.ResponseWriter.WriteHeader(code)
}

func (t *tapWriter) Write(p []byte) (int, error) {
	t.mu.Lock()
	if t.isSSE() {
		t.sse.write(p, t.sent, t.long)
	} else {
		t.size += len(p)
		if room := maxKeptBody + 1 - len(t.body); room > 0 {
			t.body = append(t.body, p[:min(len(p), room)]...)
		}
	}
	t.mu.Unlock()
	return t.ResponseWriter.Write(p)
}

func (t *tapWriter) Flush() {
	if f, ok := t.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func (t *tapWriter) Unwrap() http.ResponseWriter { return t.ResponseWriter }

func (t *tapWriter) isSSE() bool {
	return strings.HasPrefix(t.Header().Get("Content-Type"), "text/event-stream")
}

// finish reports a JSON body once the handler is done.
func (t *tapWriter) finish() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.isSSE() || !strings.HasPrefix(t.Header().Get("Content-Type"), "application/json") {
		return
	}
	if t.size > maxKeptBody {
		t.long(t.size, t.body)
		return
	}
	if body := bytes.TrimSpace(t.body); len(body) > 0 {
		t.sent(body)
	}
}

// An sseTap reads a text/event-stream as it passes, as the SSE standard
// does: a line ends at CRLF, LF or CR, a "data:" line adds to the event's
// data, an empty line ends the event. It keeps at most maxKeptBody of one
// event.
type sseTap struct {
	line    []byte // the line so far, while the event is within the limit
	lineLen int    // the line's length, kept or not
	data    []byte // the event's data so far
	hasData bool
	size    int    // bytes of the event so far, each line break one byte
	over    bool   // the event passed maxKeptBody: only its start is kept
	start   []byte // the start of an event over the limit
	cr      bool   // the last byte was a CR, so an LF now ends no line
}

func (s *sseTap) write(p []byte, sent func([]byte), long func(int, []byte)) {
	for len(p) > 0 {
		if s.cr && p[0] == '\n' {
			s.cr = false
			p = p[1:]
			continue
		}
		s.cr = false
		i := bytes.IndexAny(p, "\r\n")
		if i < 0 {
			s.add(p)
			return
		}
		s.add(p[:i])
		s.cr = p[i] == '\r'
		s.size++
		s.endLine(sent, long)
		p = p[i+1:]
	}
}

// add adds b to the line, keeping it while the event is within
// maxKeptBody.
func (s *sseTap) add(b []byte) {
	s.size += len(b)
	s.lineLen += len(b)
	if s.over {
		return
	}
	if s.size > maxKeptBody {
		s.over = true
		head := append(append(s.data, s.line...), b...)
		s.start = bytes.Clone(head[:min(maxRaw, len(head))])
		s.line, s.data = nil, nil
		return
	}
	s.line = append(s.line, b...)
}

// endLine takes the line just ended: a data line, another field, or the
// empty line that ends the event.
func (s *sseTap) endLine(sent func([]byte), long func(int, []byte)) {
	empty, line := s.lineLen == 0, s.line
	s.line, s.lineLen = s.line[:0], 0
	if !empty {
		if d, ok := bytes.CutPrefix(line, []byte("data:")); ok && !s.over {
			if s.hasData {
				s.data = append(s.data, '\n')
			}
			s.data = append(s.data, bytes.TrimPrefix(d, []byte(" "))...)
			s.hasData = true
		}
		return
	}
	switch {
	case s.over:
		long(s.size, s.start)
	case s.hasData:
		sent(bytes.Clone(s.data))
	}
	s.data, s.hasData, s.size, s.over, s.start = s.data[:0], false, 0, false, nil
}

// longEntry is the log entry of an HTTP answer (a JSON body or one SSE
// event) longer than maxKeptBody: its size, its start, and the limit.
func longEntry(session string, size int, start []byte) Entry {
	return Entry{Dir: Send, Transport: "http", Session: session, Kind: KindInvalid, Bytes: size, Raw: string(start),
		Note: fmt.Sprintf("an answer of %d bytes is longer than %d bytes (8 MiB), the most of one message the log holds: passed on whole, logged by its start", size, maxKeptBody)}
}
