package lab

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ServeStdio serves one client over newline-delimited JSON-RPC on r and w
// until r ends or ctx is done.
func (l *Lab) ServeStdio(ctx context.Context, r io.Reader, w io.Writer) error {
	t := &stdioTransport{lab: l, r: r, w: w}
	err := l.server.Run(ctx, t)
	if errors.Is(err, io.EOF) || errors.Is(err, mcp.ErrConnectionClosed) {
		err = nil
	}
	return err
}

// A stdioTransport is the lab's own stdio transport: it reads every line
// itself, logs it, answers what is not valid JSON-RPC, applies OnUnknown, and
// passes the rest to the SDK.
type stdioTransport struct {
	lab *Lab
	r   io.Reader
	w   io.Writer
}

func (t *stdioTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	c := &stdioConn{
		lab:      t.lab,
		w:        t.w,
		incoming: make(chan inMsg),
		closed:   make(chan struct{}),
		flight:   make(map[jsonrpc.ID]bool),
		room:     make(chan struct{}, 1),
	}
	go c.readLoop(newLineReader(t.r, MaxLineLength))
	return c, nil
}

type inMsg struct {
	msg jsonrpc.Message
	err error
}

type stdioConn struct {
	lab      *Lab
	w        io.Writer
	wmu      sync.Mutex
	track    tracker
	incoming chan inMsg
	closed   chan struct{}
	once     sync.Once

	fmu    sync.Mutex
	flight map[jsonrpc.ID]bool // requests handed to the SDK and not answered yet
	room   chan struct{}       // signalled when one of them is answered
}

// maxInFlight bounds the requests handed to the SDK and not answered yet.
// The SDK takes every request it is given at once and answers each call in
// a goroutine of its own, so a client that pipelines 20,000 tools/list would
// have it hold thousands of goroutines and replies at a time (150 MiB and
// more); holding back the next line instead keeps the server's memory flat.
// The replies are the same; the client sees only its input read later.
const maxInFlight = 64

func (c *stdioConn) readLoop(lr *lineReader) {
	for {
		line, size, err := lr.next()
		if err != nil {
			// A client that closes stdin after its last request still gets
			// the answers: wait for the SDK to finish what it was given.
			c.drain(drainGrace + max(c.lab.cfg.InitDelay, c.lab.cfg.DiscoverDelay))
			c.deliver(inMsg{err: err})
			return
		}
		if msg := c.accept(line, size); msg != nil {
			if req, ok := msg.(*jsonrpc.Request); ok && req.ID.IsValid() && !c.admit(req.ID) {
				return
			}
			if !c.deliver(inMsg{msg: msg}) {
				return
			}
		}
	}
}

// drainGrace bounds the wait for answers to requests in flight at the end of
// input, beyond any configured delay.
const drainGrace = 2 * time.Second

// drain waits until every request passed to the SDK is answered, the
// connection closes, or d passes.
func (c *stdioConn) drain(d time.Duration) {
	deadline := time.Now().Add(d)
	for c.track.inFlight() > 0 && time.Now().Before(deadline) {
		select {
		case <-c.closed:
			return
		case <-time.After(5 * time.Millisecond):
		}
	}
}

// deliver hands m to Read; it reports false once the connection is closed.
func (c *stdioConn) deliver(m inMsg) bool {
	select {
	case c.incoming <- m:
		return true
	case <-c.closed:
		return false
	}
}

// admit waits until fewer than maxInFlight requests are with the SDK, and
// counts id among them; it reports false once the connection is closed.
func (c *stdioConn) admit(id jsonrpc.ID) bool {
	c.fmu.Lock()
	for len(c.flight) >= maxInFlight {
		c.fmu.Unlock()
		select {
		case <-c.room:
		case <-c.closed:
			return false
		}
		c.fmu.Lock()
	}
	c.flight[id] = true
	c.fmu.Unlock()
	return true
}

// answered notes that the SDK answered id.
func (c *stdioConn) answered(id jsonrpc.ID) {
	c.fmu.Lock()
	delete(c.flight, id)
	c.fmu.Unlock()
	select {
	case c.room <- struct{}{}:
	default:
	}
}

// accept logs one line and decides its fate: it returns the message to pass
// to the SDK, or nil when the lab answered (or ignored) it itself.
func (c *stdioConn) accept(line []byte, size int) jsonrpc.Message {
	e := Entry{Dir: Recv, Transport: "stdio", Bytes: size}
	if size > MaxLineLength {
		e.Kind, e.Note, e.Raw = KindInvalid, fmt.Sprintf("line of %d bytes is longer than %d", size, MaxLineLength), string(line)
		c.lab.log.Log(e)
		c.reply(jsonNull, -32700, e.Note)
		return nil
	}
	m := classify(line)
	act := c.lab.logReceived(e, m, line, c.track.done())
	c.track.received(m)
	switch {
	case m.kind == KindEmpty:
		return nil
	case m.kind == KindInvalid:
		c.reply(m.replyID, m.code, m.note)
		return nil
	case act != "":
		if !c.lab.actOnUnknown(m, c.track.done(), func(code int, msg string) { c.reply(m.id, code, msg) }) {
			c.track.forget(m.id) // never answered: do not wait for it at the end
		}
		return nil
	}
	msg, err := jsonrpc.DecodeMessage(line)
	if err != nil { // classify accepted what the SDK refuses: answer, do not pass on
		c.reply(m.id, -32600, err.Error())
		return nil
	}
	return msg
}

func (c *stdioConn) reply(id []byte, code int, msg string) {
	if err := c.writeLine(errorResponse(id, code, msg)); err != nil {
		c.Close()
	}
}

func (c *stdioConn) writeLine(data []byte) error {
	return c.writeEntry(c.track.sentEntry(data), data)
}

// writeEntry logs e and writes data, which e describes, as one line.
func (c *stdioConn) writeEntry(e Entry, data []byte) error {
	e.Transport = "stdio"
	c.wmu.Lock()
	defer c.wmu.Unlock()
	c.lab.log.Log(e)
	_, err := c.w.Write(append(data, '\n'))
	return err
}

func (c *stdioConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case m := <-c.incoming:
		return m.msg, m.err
	case <-c.closed:
		return nil, io.EOF
	}
}

func (c *stdioConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	r, isResponse := msg.(*jsonrpc.Response)
	if isResponse {
		defer c.answered(r.ID) // written or not, the SDK is done with it
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if isResponse {
		if data, id, ok := encodeResult(r); ok {
			// The entry sentEntry would make, without parsing data again.
			e := Entry{Dir: Send, Kind: KindResponse, ID: id, Bytes: len(data), Method: c.track.answered(id, true)}
			return c.writeEntry(e, data)
		}
	}
	data, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return fmt.Errorf("encoding message: %w", err)
	}
	return c.writeLine(data)
}

func (c *stdioConn) Close() error {
	c.once.Do(func() { close(c.closed) })
	return nil
}

func (c *stdioConn) SessionID() string { return "" }
