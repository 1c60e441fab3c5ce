package lab

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sync"
	"time"
)

// Directions of a logged message.
const (
	Recv = "recv" // client to server
	Send = "send" // server to client
)

// An Entry is one line of the message log: one message received or sent.
type Entry struct {
	Time      time.Time       `json:"time"`
	Dir       string          `json:"dir"`
	Transport string          `json:"transport"`         // "stdio" or "http"
	Session   string          `json:"session,omitempty"` // the HTTP session or request, if any
	Kind      string          `json:"kind"`              // request, notification, response, error, invalid
	Method    string          `json:"method,omitempty"`  // for responses: the method of the request answered
	ID        json.RawMessage `json:"id,omitempty"`
	Meta      json.RawMessage `json:"meta,omitempty"`  // params._meta of a request
	Error     *int            `json:"error,omitempty"` // the error code of an error response
	Note      string          `json:"note,omitempty"`  // why a line was invalid, or what the lab did
	Raw       string          `json:"raw,omitempty"`   // the raw line, where it does not parse
	Bytes     int             `json:"bytes"`           // the size of the message on the wire
	// Body is the whole message, where it is kept: the proxy keeps the
	// replies that carry a server's texts (TextMethods).
	Body json.RawMessage `json:"body,omitempty"`
}

// A MessageLog appends entries to a JSON Lines file, one write per line, so
// that concurrent sessions never interleave and a killed server loses at
// most the line being written. A nil *MessageLog logs nothing.
//
// A write that fails (a full disk) stops the log: the part of the line that
// was written is cut off again where the writer can truncate (a file), and
// Failed is closed, so that a server stops rather than serve on without a
// record of what it did.
type MessageLog struct {
	mu     sync.Mutex
	w      io.Writer
	c      io.Closer
	size   int64 // bytes written so far, where w began
	err    error // the first write error; later writes are skipped
	failed chan struct{}
	now    func() time.Time
}

// A truncater can take back the torn end of a failed write.
type truncater interface{ Truncate(size int64) error }

// OpenMessageLog opens (creating or appending to) the log at path.
func OpenMessageLog(path string) (*MessageLog, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return nil, fmt.Errorf("opening message log: %w", err)
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("opening message log: %w", err)
	}
	l := NewMessageLog(f)
	l.c, l.size = f, info.Size()
	return l, nil
}

// NewMessageLog logs to w, which must not be written to by others. If w has
// a Truncate method (an *os.File), a failed write's torn line is cut off.
func NewMessageLog(w io.Writer) *MessageLog {
	return &MessageLog{w: w, now: time.Now, failed: make(chan struct{})}
}

// maxRaw bounds the raw text kept for one invalid line.
const maxRaw = 64 << 10

// Log appends e, stamping its time.
func (l *MessageLog) Log(e Entry) {
	if l == nil {
		return
	}
	if len(e.Raw) > maxRaw {
		e.Note += fmt.Sprintf(" (raw cut to %d of %d bytes)", maxRaw, len(e.Raw))
		e.Raw = e.Raw[:maxRaw]
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.err != nil {
		return
	}
	e.Time = l.now().UTC()
	body := e.Body
	e.Body = nil
	line, err := json.Marshal(e)
	if err == nil && len(body) > 0 {
		line, err = appendBody(line, body)
	}
	if err != nil { // cannot happen for Entry's field types and a parsed Body
		l.err = err
		close(l.failed)
		return
	}
	line = append(line, '\n')
	n, err := l.w.Write(line)
	if err == nil && n < len(line) {
		err = io.ErrShortWrite
	}
	if err != nil {
		l.err = err
		if t, ok := l.w.(truncater); ok && n > 0 {
			if terr := t.Truncate(l.size); terr != nil {
				l.err = fmt.Errorf("%w (and cutting off the torn line: %v)", err, terr)
			}
		}
		close(l.failed)
		return
	}
	l.size += int64(n)
}

// appendBody adds body as the last field of the marshalled entry line, as
// json.Marshal writes it: a whole tools/list reply scanned again by
// encoding/json's compactor was a fifth of the lab's CPU time under
// pipelined tools/list (BenchmarkToolsList). A body that compacting leaves
// as it is (no space outside strings, nothing to HTML-escape) is copied;
// any other goes through json.Marshal. Body is only ever a message the lab
// or the proxy parsed, so its validity is not checked again.
func appendBody(line []byte, body json.RawMessage) ([]byte, error) {
	line = append(line[:len(line)-1], `,"body":`...)
	if compacted(body) {
		line = append(line, body...)
	} else {
		b, err := json.Marshal(body)
		if err != nil {
			return nil, err
		}
		line = append(line, b...)
	}
	return append(line, '}'), nil
}

// compacted reports whether json.Marshal would copy the JSON text b
// unchanged: no white space outside strings, and none of the bytes it
// escapes (<, >, &, and the lead byte of U+2028 and U+2029).
func compacted(b []byte) bool {
	inString, escaped := false, false
	for _, c := range b {
		switch {
		case c == '<' || c == '>' || c == '&' || c == 0xE2:
			return false
		case inString:
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
		case c == '"':
			inString = true
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			return false
		}
	}
	return !inString
}

// Failed is closed when a write fails; Err then says why. A nil log never
// fails.
func (l *MessageLog) Failed() <-chan struct{} {
	if l == nil {
		return nil
	}
	return l.failed
}

// Err returns the first error that stopped the log, if any.
func (l *MessageLog) Err() error {
	if l == nil {
		return nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.err != nil {
		return fmt.Errorf("writing message log: %w", l.err)
	}
	return nil
}

// Close closes the underlying file, and reports the first write error.
func (l *MessageLog) Close() error {
	if l == nil {
		return nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	var err error
	if l.c != nil {
		err = l.c.Close()
	}
	if l.err != nil {
		return fmt.Errorf("writing message log: %w", l.err)
	}
	return err
}
