package lab

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
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
	// Unread marks an invalid line that may well be a message, but one the
	// log cannot read: longer than the 16 MiB a line may have
	// (maxLineLength), or JSON nested deeper than MaxDepth. The proxy
	// passed it on as it came.
	Unread bool `json:"unread,omitempty"`
	// HTTPMethod, Status and LastEventID describe an HTTP exchange
	// without a message (KindHTTP): a GET or DELETE, with the
	// Last-Event-ID of a resumed stream, or a 404 answer.
	HTTPMethod  string `json:"http_method,omitempty"`
	Status      int    `json:"status,omitempty"`
	LastEventID string `json:"last_event_id,omitempty"`
	// Body is the whole message, where it is kept: the replies that carry
	// a server's texts (initialize, server/discover, the lists of tools,
	// prompts and resources), tool calls, resource reads and prompts got,
	// what a server asks a client (elicitation, sampling, roots) with its
	// answers, and the notifications a client may show the model
	// (labvocab's TextMethods, CallMethods, AskMethods, NoticeMethods),
	// and a notifications/cancelled (labvocab.Cancelled).
	Body json.RawMessage `json:"body,omitempty"`
	// Count is, for a KindDropped entry, how many notifications it
	// stands for.
	Count int `json:"count,omitempty"`
}

// A MessageLog appends entries to a JSON Lines file. Log returns once its
// line is written, so a line is in the file before the message it records is
// passed on, and a killed server loses at most the lines being written. Lines
// logged while a write is under way are written together by the next write
// (a group commit): a busy server pays one write for several lines, and
// concurrent sessions never interleave. A nil *MessageLog logs nothing.
//
// A write that fails (a full disk) stops the log: the torn end of the write
// is cut off again, back to its last whole line, where the writer can
// truncate (a file), and Failed is closed, so that a server stops rather
// than serve on without a record of what it did.
type MessageLog struct {
	mu      sync.Mutex
	group   groupCommit
	w       io.Writer
	c       io.Closer
	size    int64  // bytes written so far, where w began
	pending []byte // lines logged and not yet being written
	spare   []byte // the buffer of the last write, for reuse
	err     error  // the first write error; later writes are skipped
	failed  chan struct{}
	now     func() time.Time
	// notices counts the notifications logged, by direction and method
	// (MaxNotices).
	notices map[[2]string]int
}

// MaxNotices bounds the notifications of one method and direction that a
// log keeps: past it they are counted, and Close logs how many it left
// out (a KindDropped entry), so that a server that floods a client with
// log messages or list changes costs a bounded log, and says so.
const MaxNotices = 1000

// KindDropped is the entry Close logs for the notifications of one method
// and direction past MaxNotices: its Note says how many.
const KindDropped = "dropped"

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
	l := &MessageLog{w: w, now: time.Now, failed: make(chan struct{})}
	l.group = newGroupCommit(&l.mu)
	return l
}

// maxRaw bounds the raw text kept for one invalid line.
const maxRaw = 64 << 10

// Log appends e, stamping its time, and returns once its line is written
// (or the log has failed).
func (l *MessageLog) Log(e Entry) {
	l.LogAll(e)
}

// LogAll appends es, in their order and together, stamping their time, and
// returns once their lines are written: nil then, or the error that stopped
// the log, when the lines may not be in it. A caller that passes a message
// on only after LogAll returned nil never passes on one the log misses.
func (l *MessageLog) LogAll(es ...Entry) error {
	if l == nil {
		return nil
	}
	return l.logAt(l.now(), es...)
}

// Started logs that the process serving the client started at start (a
// KindStart entry stamped start, not now): the analysis measures the
// server's start-up from it to the reply that completes the handshake,
// which tells a server held on purpose from one slow to start on a loaded
// machine. Its Note says how start was read (StartSource).
func (l *MessageLog) Started(start time.Time, source string) error {
	if l == nil {
		return nil
	}
	return l.logAt(start, Entry{Dir: ServerDir, Kind: KindStart, Note: source})
}

func (l *MessageLog) logAt(now time.Time, es ...Entry) error {
	if len(es) == 0 {
		return nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.err != nil {
		return fmt.Errorf("writing message log: %w", l.err)
	}
	now = now.UTC()
	for _, e := range es {
		if !l.counted(e) {
			continue
		}
		if err := l.appendLine(e, now); err != nil { // cannot happen for Entry's field types and a parsed Body
			l.fail(err)
			return fmt.Errorf("writing message log: %w", err)
		}
	}
	if l.group.join(l.stopped) {
		l.flush()
	}
	if l.err != nil {
		return fmt.Errorf("writing message log: %w", l.err)
	}
	return nil
}

// counted counts e, with l.mu held, when it is a notification, and
// reports whether to log it: not past MaxNotices of its method and
// direction.
func (l *MessageLog) counted(e Entry) bool {
	if e.Kind != KindNotification {
		return true
	}
	if l.notices == nil {
		l.notices = make(map[[2]string]int)
	}
	k := [2]string{e.Dir, e.Method}
	l.notices[k]++
	return l.notices[k] <= MaxNotices
}

// stopped reports, with l.mu held, whether the log has failed.
func (l *MessageLog) stopped() bool { return l.err != nil }

// appendLine adds e's line, stamped now, to the lines waiting to be written.
func (l *MessageLog) appendLine(e Entry, now time.Time) error {
	if len(e.Raw) > maxRaw {
		e.Note += fmt.Sprintf(" (raw cut to %d of %d bytes)", maxRaw, len(e.Raw))
		e.Raw = e.Raw[:maxRaw]
	}
	e.Time = now
	body := e.Body
	e.Body = nil
	line, err := json.Marshal(e)
	if err == nil && len(body) > 0 {
		line, err = appendBody(line, body)
	}
	if err != nil {
		return err
	}
	l.pending = append(append(l.pending, line...), '\n')
	return nil
}

// flush writes the pending lines in one write. It is called with l.mu held
// and no write under way, and releases l.mu while it writes.
func (l *MessageLog) flush() {
	upto := l.group.begin()
	batch := l.pending
	l.pending = l.spare[:0]
	l.mu.Unlock()
	n, err := l.w.Write(batch)
	l.mu.Lock()
	l.spare = reuse(batch)
	if err == nil && n < len(batch) {
		err = io.ErrShortWrite
	}
	if err != nil {
		// Cut the write back to its last whole line: the lines before it
		// are in the log (their callers learn only that it failed).
		whole := bytes.LastIndexByte(batch[:n], '\n') + 1
		if t, ok := l.w.(truncater); ok && n > whole {
			if terr := t.Truncate(l.size + int64(whole)); terr != nil {
				err = fmt.Errorf("%w (and cutting off the torn line: %v)", err, terr)
			}
		}
		l.size += int64(whole)
		l.fail(err)
		l.group.end(upto, false)
		return
	}
	l.size += int64(n)
	l.group.end(upto, true)
}

// maxSpare bounds the buffer kept between the writes of a group commit.
const maxSpare = 1 << 20

// reuse returns b emptied to be filled again, or nil when it is larger than
// maxSpare. The buffer a commit wrote is the only one that may be kept: the
// spare it replaces is the one filled meanwhile.
func reuse[T any](b []T) []T {
	if cap(b) > maxSpare {
		return nil
	}
	return b[:0]
}

// fail stops the log with err, unless it is stopped already. It is called
// with l.mu held.
func (l *MessageLog) fail(err error) {
	if l.err != nil {
		return
	}
	l.err = err
	l.pending = nil
	close(l.failed)
	l.group.cond.Broadcast()
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

// logDropped logs, with l.mu held and no write under way, a KindDropped
// entry for each method and direction whose notifications went past
// MaxNotices, in a sorted order.
func (l *MessageLog) logDropped() {
	var keys [][2]string
	for k, n := range l.notices {
		if n > MaxNotices {
			keys = append(keys, k)
		}
	}
	if len(keys) == 0 {
		return
	}
	slices.SortFunc(keys, func(a, b [2]string) int { return cmp.Or(cmp.Compare(a[0], b[0]), cmp.Compare(a[1], b[1])) })
	now := l.now().UTC()
	for _, k := range keys {
		n := l.notices[k]
		e := Entry{Dir: k[0], Kind: KindDropped, Method: k[1], Count: n - MaxNotices,
			Note: fmt.Sprintf("%d more %s notifications after the first %d, counted and not logged (%d in all)", n-MaxNotices, k[1], MaxNotices, n)}
		if err := l.appendLine(e, now); err != nil {
			l.fail(err)
			return
		}
	}
	l.flush()
}

// Close closes the underlying file, and reports the first write error. A
// write under way is waited for.
func (l *MessageLog) Close() error {
	if l == nil {
		return nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.group.wait()
	if l.err == nil {
		l.logDropped()
		l.group.wait()
	}
	var err error
	if l.c != nil {
		err = l.c.Close()
	}
	if l.err != nil {
		return fmt.Errorf("writing message log: %w", l.err)
	}
	return err
}
