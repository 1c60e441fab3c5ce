package lab

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"sync"
	"time"

	"github.com/instrlab/instrlab/internal/labvocab"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ServeStdio serves one client over newline-delimited JSON-RPC on r and w
// until r ends or ctx is done.
//
// A failed write to the message log stops the server with that error.
func (l *Lab) ServeStdio(ctx context.Context, r io.Reader, w io.Writer) error {
	ctx, stop := l.stopOnLogFailure(ctx)
	defer stop()
	t := &stdioTransport{lab: l, r: r, w: w}
	err := l.server.Run(ctx, t)
	if lerr := l.log.Err(); lerr != nil {
		return fmt.Errorf("stopped serving: %w", lerr)
	}
	if errors.Is(err, io.EOF) || errors.Is(err, mcp.ErrConnectionClosed) {
		err = nil
	}
	return err
}

// stopOnLogFailure returns a context that is done when ctx is or when the
// message log fails.
func (l *Lab) stopOnLogFailure(ctx context.Context) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(ctx)
	go func() {
		select {
		case <-l.log.Failed():
			cancel()
		case <-ctx.Done():
		}
	}()
	return ctx, cancel
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
		flight:   make(map[int64]pending),
		room:     make(chan struct{}, 1),
	}
	c.out.group = newGroupCommit(&c.out.mu)
	go c.readLoop(newLineReader(t.r, maxLineLength))
	return c, nil
}

type inMsg struct {
	msg jsonrpc.Message
	err error
}

type stdioConn struct {
	lab      *Lab
	w        io.Writer
	out      outbox
	track    tracker
	incoming chan inMsg
	closed   chan struct{}
	once     sync.Once

	fmu          sync.Mutex
	flight       map[int64]pending // requests handed to the SDK and not answered yet, by the id the SDK knows
	nextID       int64             // the id the SDK knows the next request by
	pendingBytes int               // the bytes of the requests in flight
	room         chan struct{}     // signalled when one of them is answered
}

// A pending request is one the SDK is answering. The SDK knows it by an id
// of the lab's own, so that the answer carries exactly the id the client
// sent (the SDK decodes ids through float64 and strings through UTF-8
// replacement) and two requests with the same id are two requests.
type pending struct {
	id    json.RawMessage // as the client sent it
	key   string          // the request's key in the tracker
	bytes int             // the memory it holds: heldPerByte times its line's size
}

// maxInFlight bounds the requests handed to the SDK and not answered yet.
// The SDK takes every request it is given at once and answers each call in
// a goroutine of its own, so a client that pipelines 20,000 tools/list would
// have it hold thousands of goroutines and replies at a time (150 MiB and
// more); holding back the next line instead keeps the server's memory flat.
// The replies are the same; the client sees only its input read later.
const maxInFlight = 64

// maxPendingBytes bounds, in the same way, the memory the requests in flight
// hold: the SDK holds a request's params, and what it decodes them to, until
// it answers, about heldPerByte times the line (a pending 15 MiB request held
// about 60 MiB, issue 10), so each request counts for that much. A request
// larger than the bound is still served, alone.
const maxPendingBytes = 32 << 20

// heldPerByte is what a request in flight holds per byte of its line.
const heldPerByte = 4

func (c *stdioConn) readLoop(lr *lineReader) {
	var b inBatch
	for {
		line, size, err := lr.next()
		if err != nil {
			if !c.passOn(&b) {
				return
			}
			// A client that closes stdin after its last request still gets
			// the answers: wait for the SDK to finish what it was given.
			c.drain(drainGrace + c.lab.cfg.maxHold())
			c.deliver(inMsg{err: err})
			return
		}
		var m message
		if size <= maxLineLength {
			m = classify(line)
		}
		if c.plain(&b, line, size, m) {
			if len(b.reqs) < maxInBatch && lr.ready() {
				continue
			}
			if !c.passOn(&b) {
				return
			}
			continue
		}
		if !c.passOn(&b) {
			return
		}
		if msg := c.accept(line, size, m); msg != nil {
			if !c.deliver(inMsg{msg: msg}) {
				return
			}
		}
	}
}

// An inBatch holds plain messages read one after another from input that
// was there to read, logged together in one LogAll before they are handed
// to the SDK: a client that pipelines requests would have the log written
// once for each of them.
type inBatch struct {
	entries []Entry
	reqs    []*jsonrpc.Request
	msgs    []message
	sizes   []int
}

// maxInBatch bounds the messages read before they are logged and handed on.
const maxInBatch = maxInFlight

// plain adds the line m to b, and reports true, when it is a request or
// notification that the lab hands the SDK as it is: one the SDK's decoder
// reads as classify did (sdkRequest), that onUnknown leaves alone and that
// is not a cancellation, which the lab rewrites, nor a tasks/get of a lab
// that made a task, which it answers itself.
func (c *stdioConn) plain(b *inBatch, line []byte, size int, m message) bool {
	if size > maxLineLength || m.method == labvocab.Cancelled || m.method == "tasks/get" && c.lab.servesTasks() {
		return false
	}
	req, ok := sdkRequest(line, m)
	if !ok {
		return false
	}
	e, act := c.lab.receivedEntry(Entry{Transport: "stdio", Bytes: size}, m, line, c.track.done())
	if act != "" {
		return false
	}
	b.entries = append(b.entries, e)
	b.reqs = append(b.reqs, req)
	b.msgs = append(b.msgs, m)
	b.sizes = append(b.sizes, size)
	return true
}

// passOn logs the messages of b and hands them to the SDK, in order, and
// empties b. It reports false once the connection is closed, or when the log
// failed: then none of them is handed on.
func (c *stdioConn) passOn(b *inBatch) bool {
	if len(b.reqs) == 0 {
		return true
	}
	defer b.reset()
	if c.lab.log.LogAll(b.entries...) != nil {
		return false
	}
	for i, req := range b.reqs {
		if m := b.msgs[i]; m.kind == KindRequest {
			id, key, ok := c.admit(pending{id: m.id, bytes: heldPerByte * b.sizes[i]})
			if !ok {
				return false
			}
			req.ID, _ = jsonrpc.MakeID(float64(id)) // the SDK's own decoding of an integer id
			c.track.receivedAs(key, m.method)
		}
		if !c.deliver(inMsg{msg: req}) {
			return false
		}
	}
	return true
}

func (b *inBatch) reset() {
	clear(b.entries)
	clear(b.reqs)
	clear(b.msgs)
	b.entries, b.reqs, b.msgs, b.sizes = b.entries[:0], b.reqs[:0], b.msgs[:0], b.sizes[:0]
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

// admit waits until fewer than maxInFlight requests, and fewer than
// maxPendingBytes, are with the SDK, and counts p among them. It returns the
// id the SDK is to know p by and p's key in the tracker, and false once the
// connection is closed.
func (c *stdioConn) admit(p pending) (id int64, key string, ok bool) {
	c.fmu.Lock()
	for len(c.flight) >= maxInFlight || (len(c.flight) > 0 && c.pendingBytes+p.bytes > maxPendingBytes) {
		c.fmu.Unlock()
		select {
		case <-c.room:
		case <-c.closed:
			return 0, "", false
		}
		c.fmu.Lock()
	}
	c.nextID++
	id = c.nextID
	p.key = "\x00" + strconv.FormatInt(id, 10) // never a JSON text, so never a client's id
	c.flight[id] = p
	c.pendingBytes += p.bytes
	c.fmu.Unlock()
	return id, p.key, true
}

// answering returns the request the SDK knows by id, which it is answering.
func (c *stdioConn) answering(id int64) (pending, bool) {
	c.fmu.Lock()
	defer c.fmu.Unlock()
	p, ok := c.flight[id]
	return p, ok
}

// answered notes that the SDK answered the request it knows by id, and
// returns that request.
func (c *stdioConn) answered(id int64) (pending, bool) {
	c.fmu.Lock()
	p, ok := c.flight[id]
	delete(c.flight, id)
	c.pendingBytes -= p.bytes
	c.fmu.Unlock()
	select {
	case c.room <- struct{}{}:
	default:
	}
	return p, ok
}

// inFlight returns the id the SDK knows the oldest request in flight with
// the client's id by.
func (c *stdioConn) inFlight(id json.RawMessage) (int64, bool) {
	c.fmu.Lock()
	defer c.fmu.Unlock()
	var found int64
	for n, p := range c.flight {
		if bytes.Equal(p.id, id) && (found == 0 || n < found) {
			found = n
		}
	}
	return found, found != 0
}

// accept logs one line, which classify read as m, and decides its fate: it
// returns the message to pass to the SDK, or nil when the lab answered (or
// ignored) it itself.
func (c *stdioConn) accept(line []byte, size int, m message) jsonrpc.Message {
	e := Entry{Dir: Recv, Transport: "stdio", Bytes: size}
	if size > maxLineLength {
		e.Kind, e.Note, e.Raw, e.Unread = KindInvalid, fmt.Sprintf("line of %d bytes is longer than %d", size, maxLineLength), string(line), true
		c.lab.log.Log(e)
		c.reply(jsonNull, -32700, e.Note)
		return nil
	}
	if m.kind == KindResponse || m.kind == KindError {
		e.Method = c.track.asked(m.id) // the client's answer to a request of the lab's
	}
	act := c.lab.logReceived(e, m, line, c.track.done())
	switch {
	case m.kind == KindEmpty:
		return nil
	case m.kind == KindInvalid:
		c.reply(m.replyID, m.code, m.note)
		return nil
	case m.kind == KindRequest && m.method == "tasks/get" && c.lab.servesTasks():
		c.track.received(m)
		if err := c.writeLine(c.lab.taskAnswer(m)); err != nil {
			c.Close()
		}
		return nil
	case act != "":
		c.track.received(m)
		if !c.lab.actOnUnknown(m, c.track.done(), func(code int, msg string) { c.reply(m.id, code, msg) }) {
			c.track.forget(m.id) // never answered: do not wait for it at the end
		}
		return nil
	}
	var msg jsonrpc.Message
	if req, ok := sdkRequest(line, m); ok {
		msg = req
	} else {
		var err error
		if msg, err = jsonrpc.DecodeMessage(line); err != nil { // classify accepted what the SDK refuses: answer, do not pass on
			c.track.received(m)
			c.reply(m.id, -32600, err.Error())
			return nil
		}
	}
	switch req, _ := msg.(*jsonrpc.Request); {
	case req == nil:
	case req.ID.IsValid():
		id, key, ok := c.admit(pending{id: m.id, bytes: heldPerByte * size})
		if !ok {
			return nil
		}
		req.ID, _ = jsonrpc.MakeID(float64(id)) // the SDK's own decoding of an integer id
		c.track.receivedAs(key, m.method)
	case req.Method == labvocab.Cancelled:
		c.renameCancelled(req)
	}
	return msg
}

// renameCancelled points a cancellation at the id the SDK knows the
// cancelled request by.
func (c *stdioConn) renameCancelled(req *jsonrpc.Request) {
	var params map[string]json.RawMessage
	if json.Unmarshal(req.Params, &params) != nil || params["requestId"] == nil {
		return
	}
	id, ok := c.inFlight(params["requestId"])
	if !ok {
		return
	}
	params["requestId"] = strconv.AppendInt(nil, id, 10)
	if p, err := json.Marshal(params); err == nil {
		req.Params = p
	}
}

func (c *stdioConn) reply(id []byte, code int, msg string) {
	if err := c.writeLine(errorResponse(id, code, msg)); err != nil {
		c.Close()
	}
}

func (c *stdioConn) writeLine(data []byte) error {
	return c.writeEntry(c.track.sentEntry(data), data)
}

// writeEntry logs e and writes data, which e describes, as one line, and
// returns once both are written. Lines written while a write is under way
// go out together in the next (a group commit): their log lines first, in
// one write to the message log, then the lines themselves, in one write to
// the client and in the same order, so that the log's order is the wire's
// and a line reaches the client only once the log holds it. The SDK writes
// the answers to pipelined requests from a goroutine each, and a write of
// its own for each was most of the transport's system time. A write that
// fails fails every later one: the connection is broken.
func (c *stdioConn) writeEntry(e Entry, data []byte) error {
	e.Transport = "stdio"
	o := &c.out
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.err != nil {
		return o.err
	}
	o.entries = append(o.entries, e)
	o.lines = append(append(o.lines, data...), '\n')
	if !o.group.join(o.stopped) {
		return o.err
	}
	upto := o.group.begin()
	entries, lines := o.entries, o.lines
	o.entries, o.lines = o.spareEntries[:0], o.spareLines[:0]
	o.mu.Unlock()
	err := c.lab.log.LogAll(entries...)
	if err == nil {
		_, err = c.w.Write(lines)
	}
	o.mu.Lock()
	clear(entries) // the bodies they keep
	o.spareEntries, o.spareLines = reuse(entries), reuse(lines)
	if err != nil {
		o.err = err
	}
	o.group.end(upto, err == nil)
	return err
}

// An outbox holds the lines waiting to be written to a stdio client.
type outbox struct {
	mu      sync.Mutex
	group   groupCommit
	entries []Entry // their log entries
	lines   []byte  // the lines, each with its newline
	err     error   // the first failed write

	spareEntries []Entry // the buffers of the last write, for reuse
	spareLines   []byte
}

// stopped reports, with o.mu held, whether a write has failed.
func (o *outbox) stopped() bool { return o.err != nil }

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
	if r, ok := msg.(*jsonrpc.Response); ok {
		return c.writeResponse(ctx, r)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	data, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return fmt.Errorf("encoding message: %w", err)
	}
	return c.writeLine(c.clientSubscription(data))
}

// subscriptionKey is the _meta key of a notification on a
// subscriptions/listen stream: the id of the listen request (SEP-2575).
const subscriptionKey = "io.modelcontextprotocol/subscriptionId"

// clientSubscription puts back, in a notification of a subscriptions/listen
// stream, the client's id of the listen request where the SDK wrote the
// id it knows the request by (admit gives it one of the lab's own): a
// client tells its streams apart by their ids, and one that never saw its
// own in the acknowledgement waits for it (Claude Code 2.1.332 waited its
// 27 s budget). Anything else is written as the SDK encoded it.
func (c *stdioConn) clientSubscription(data []byte) []byte {
	if !bytes.Contains(data, []byte(subscriptionKey)) {
		return data
	}
	var msg map[string]json.RawMessage
	if json.Unmarshal(data, &msg) != nil {
		return data
	}
	var params map[string]json.RawMessage
	if json.Unmarshal(msg["params"], &params) != nil {
		return data
	}
	var meta map[string]json.RawMessage
	if json.Unmarshal(params["_meta"], &meta) != nil {
		return data
	}
	var n int64
	if json.Unmarshal(meta[subscriptionKey], &n) != nil {
		return data
	}
	c.fmu.Lock()
	p, ok := c.flight[n]
	c.fmu.Unlock()
	if !ok {
		return data
	}
	meta[subscriptionKey] = p.id
	params["_meta"], _ = json.Marshal(meta)
	msg["params"], _ = json.Marshal(params)
	out, err := json.Marshal(msg)
	if err != nil {
		return data
	}
	return out
}

// writeResponse writes the SDK's answer to a request with the id the client
// sent, and logs it.
func (c *stdioConn) writeResponse(ctx context.Context, r *jsonrpc.Response) error {
	n, _ := r.ID.Raw().(int64)
	p, ok := c.answering(n)
	// Written or not, the SDK is done with it; but it counts as in flight
	// until then, so that the requests waiting for a write (group commit)
	// count against maxInFlight too.
	defer c.answered(n)
	if !ok {
		return fmt.Errorf("the SDK answered request %v, which the lab never gave it", r.ID.Raw())
	}
	if err := ctx.Err(); err != nil {
		c.track.forget(json.RawMessage(p.key))
		return err
	}
	data, err := encodeResponse(r, p.id)
	if err != nil {
		c.track.forget(json.RawMessage(p.key))
		return err
	}
	// The entry sentEntry would make, without parsing data again.
	e := Entry{Dir: Send, Kind: KindResponse, ID: p.id, Bytes: len(data), Method: c.track.answered(json.RawMessage(p.key), r.Error == nil)}
	if r.Error != nil {
		var wire struct {
			Error struct{ Code int } `json:"error"`
		}
		json.Unmarshal(data, &wire)
		e.Kind, e.Error = KindError, &wire.Error.Code
	}
	keepBody(&e, data)
	return c.writeEntry(e, data)
}

func (c *stdioConn) Close() error {
	c.once.Do(func() { close(c.closed) })
	return nil
}

func (c *stdioConn) SessionID() string { return "" }
