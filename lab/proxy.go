package lab

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"sync/atomic"
	"time"

	"github.com/instrlab/instrlab/internal/labvocab"
)

// Dir of the entries the lab and the proxy write about the serving process
// itself (its start; the proxy's server's stderr, its exit, a failure to
// start or reach it), beside Recv and Send.
const ServerDir = "server"

// Kinds of the entries with Dir ServerDir.
const (
	KindStart   = "start"   // the process serving the client started: Time is its start (MessageLog.Started)
	KindStderr  = "stderr"  // one line the server wrote to stderr (Raw)
	KindExit    = "exit"    // the server ended; Note says how
	KindFailure = "failure" // the proxy could not start or reach the server; Note says why
)

// maxBody bounds the reply kept in an entry's Body.
const maxKeptBody = 8 << 20

// maxStderrLines bounds the stderr lines logged; the first lines say why a
// server failed to start, so those are the ones kept.
const maxStderrLines = 50

// maxStderrLine bounds the bytes held of one stderr line: what the log keeps
// of a raw text (maxRaw); Bytes says the whole line's length.
const maxStderrLine = maxRaw

// A Proxy relays newline-delimited JSON-RPC between a client and any MCP
// server, byte for byte, and writes the lab's message log about it: every
// line in either direction (Recv from the client, Send from the server),
// the replies that carry the server's texts whole, the server's stderr and
// how it ended. Each line is logged before it is passed on, so a message
// either side got is in the log even when the other side, or the proxy, is
// killed.
type Proxy struct {
	log   *MessageLog
	stdio trackers
	// UpstreamHeader is added to every request HTTPHandler sends upstream:
	// a config's credentials, which then reach neither the client nor the
	// log. Set it before HTTPHandler.
	UpstreamHeader http.Header
	// Hold, when set, holds the stdio server's reply that completes the
	// handshake (its first initialize or server/discover result) this
	// long before it is logged and passed on: any server made slow to
	// start, as the lab's -init-delay makes the lab. Set it before Relay.
	Hold time.Duration
	held atomic.Bool
	// Urgent, when closed, ends a stdio server's tree at once, without
	// the grace ServeCommand gives it otherwise: the process is about to
	// end (a client's SIGINT, then SIGTERM 100 ms later), and a daemon
	// the server started would outlive it. Set it before ServeCommand.
	Urgent <-chan struct{}
}

// trackers follow the requests of one stdio connection or HTTP exchange.
type trackers struct {
	c2s tracker // the client's requests, answered by the server
	s2c tracker // the server's requests (sampling, roots), answered by the client
}

// NewProxy returns a proxy logging to log (nil logs nothing).
func NewProxy(log *MessageLog) *Proxy { return &Proxy{log: log} }

// Relay copies lines from r to w until r ends, logging each as dir (Recv:
// r is the client, Send: r is the server). Bytes are passed unchanged,
// including a last line without a newline. Each line is logged before it
// is passed on, except one longer than maxLineLength, which is passed on as
// it arrives and logged after. It returns nil at the end of r, or the
// write error that stopped it.
func (p *Proxy) Relay(dir string, r io.Reader, w io.Writer) error {
	br := bufio.NewReaderSize(r, 64<<10)
	var line []byte
	for {
		line = line[:0]
		size, streamed := 0, false
		var err error
		for {
			var chunk []byte
			chunk, err = br.ReadSlice('\n')
			size += len(chunk)
			switch {
			case streamed: // a line too long to hold: pass on as it comes
				if _, werr := w.Write(chunk); werr != nil {
					return werr
				}
			case size > maxLineLength:
				// Too long to hold: passed on as it comes, and logged
				// (with its start) once its size is known.
				streamed = true
				if _, werr := w.Write(line); werr != nil {
					return werr
				}
				if _, werr := w.Write(chunk); werr != nil {
					return werr
				}
			default:
				line = append(line, chunk...)
			}
			if !errors.Is(err, bufio.ErrBufferFull) {
				break
			}
		}
		if streamed {
			if err == nil {
				size-- // the newline
			}
			p.logLine(dir, line[:min(len(line), maxRaw)], size, true)
		}
		if size > 0 && !streamed {
			p.logLine(dir, trimNewline(line), len(trimNewline(line)), false)
			if _, werr := w.Write(line); werr != nil {
				return werr
			}
		}
		if err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
	}
}

// logLine logs one line passed in direction dir; size is its length on the
// wire without the newline, and long says it was longer than maxLineLength
// (line then holds its start).
func (p *Proxy) logLine(dir string, line []byte, size int, long bool) {
	e := Entry{Dir: dir, Transport: "stdio", Bytes: size}
	if long {
		e.Kind, e.Note, e.Raw, e.Unread = KindInvalid, fmt.Sprintf("line of %d bytes is longer than %d", size, maxLineLength), string(line), true
		p.log.Log(e)
		return
	}
	e = p.stdio.entry(e, line)
	if dir == Send && p.Hold > 0 && completesHandshake(e) && !p.held.Swap(true) {
		time.Sleep(p.Hold)
	}
	p.log.Log(e)
}

// completesHandshake says e is a server's result to initialize or
// server/discover: the reply a client waits for before it lists tools.
func completesHandshake(e Entry) bool {
	return e.Kind == KindResponse && (e.Method == Legacy.Method() || e.Method == Modern.Method())
}

// entry completes e for one message: its kind, method (for a response, the
// method of the request it answers), id, _meta, error code, and, for the
// replies of labvocab.TextMethods, the whole message.
func (t *trackers) entry(e Entry, line []byte) Entry {
	m := classify(line)
	e.Kind, e.Method, e.ID, e.Meta, e.Note = m.kind, m.method, m.id, m.meta, m.note
	asked, answered := &t.c2s, &t.s2c // a request from this side, a reply to the other's
	if e.Dir == Send {
		asked, answered = &t.s2c, &t.c2s
	}
	switch m.kind {
	case KindInvalid, KindEmpty:
		e.Raw, e.Unread = string(line), m.unread
		if e.Dir == Send && m.kind == KindInvalid && !m.unread {
			e.Note = "the server wrote a line that is not JSON-RPC: " + m.note
		}
	case KindRequest:
		asked.received(m)
		keepBody(&e, line)
	case KindNotification:
		keepBody(&e, line)
	case KindResponse, KindError:
		e.Method = answered.answered(m.id, m.kind == KindResponse)
		if m.kind == KindError {
			e.Error = errorCode(line)
		}
		if e.Dir == Send || slices.Contains(labvocab.AskMethods, e.Method) {
			keepBody(&e, line)
		}
	}
	return e
}

// keepBody keeps data, the message e describes, whole in e when it is a
// reply carrying a server's texts (labvocab.TextMethods), a client's
// initialize or server/discover request (what it asked with: its shape), a
// request or reply of labvocab.CallMethods or labvocab.AskMethods, or a
// notification of labvocab.NoticeMethods or labvocab.Cancelled, and at most maxKeptBody bytes
// (e.Bytes says how many a longer one had).
func keepBody(e *Entry, data []byte) {
	if len(data) > maxKeptBody {
		return
	}
	text := e.Kind == KindResponse && slices.Contains(labvocab.TextMethods, e.Method) ||
		e.Kind == KindRequest && (e.Method == Legacy.Method() || e.Method == Modern.Method()) // the handshake's shape
	exchange := e.Kind == KindRequest || e.Kind == KindResponse || e.Kind == KindError
	call := exchange && (slices.Contains(labvocab.CallMethods, e.Method) || slices.Contains(labvocab.AskMethods, e.Method) || e.Method == "tasks/get")
	answer := e.Dir == Recv && (e.Kind == KindResponse || e.Kind == KindError) && e.Method == ""
	notice := e.Kind == KindNotification && (slices.Contains(labvocab.NoticeMethods, e.Method) || e.Method == labvocab.Cancelled)
	if text || call || answer || notice {
		e.Body = json.RawMessage(slices.Clone(data))
	}
}

func errorCode(line []byte) *int {
	var wire struct {
		Error struct {
			Code int `json:"code"`
		} `json:"error"`
	}
	if json.Unmarshal(line, &wire) != nil {
		return nil
	}
	return &wire.Error.Code
}

// LogStderr copies r (the server's stderr) to w unchanged, and logs its
// first maxStderrLines lines, each cut to maxStderrLine bytes with its whole
// length in Bytes; the rest are counted. It drains r to its end whatever
// the lines' lengths, so a server never blocks on its stderr.
func (p *Proxy) LogStderr(r io.Reader, w io.Writer) {
	if w != nil {
		r = io.TeeReader(r, keepWriting{w})
	}
	lr := newLineReader(r, maxStderrLine)
	n := 0
	for {
		line, size, err := lr.next()
		if err != nil {
			break
		}
		if n++; n <= maxStderrLines {
			p.log.Log(Entry{Dir: ServerDir, Kind: KindStderr, Raw: string(line), Bytes: size})
		}
	}
	if n > maxStderrLines {
		p.log.Log(Entry{Dir: ServerDir, Kind: KindStderr, Note: fmt.Sprintf("%d more stderr lines not logged", n-maxStderrLines)})
	}
}

// keepWriting writes to w and reports success whatever w says, so that a
// copy whose reader must be drained goes on after w fails.
type keepWriting struct{ w io.Writer }

func (k keepWriting) Write(b []byte) (int, error) {
	k.w.Write(b)
	return len(b), nil
}

// logServer logs an entry about the server process.
func (p *Proxy) logServer(kind, note string) {
	p.log.Log(Entry{Dir: ServerDir, Kind: kind, Note: note})
}
