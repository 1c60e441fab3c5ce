package probe

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// errNoFallback is what the recording transport answers when the SDK falls
// back to initialize during the modern probe: the legacy era is probed on
// its own connection.
var errNoFallback = errors.New("instrlab: initialize refused during the modern probe")

// A recTransport wraps an SDK transport and records every message, in the
// manner of the SDK's LoggingTransport.
type recTransport struct {
	inner            mcp.Transport
	rec              *recording
	refuseInitialize bool
}

func (t *recTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := t.inner.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &recConn{Connection: c, t: t}, nil
}

type recConn struct {
	mcp.Connection
	t *recTransport
}

func (c *recConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	m, err := c.Connection.Read(ctx)
	if err == nil {
		c.t.rec.add(false, m)
	}
	return m, err
}

func (c *recConn) Write(ctx context.Context, m jsonrpc.Message) error {
	if req, ok := m.(*jsonrpc.Request); ok && req.Method == "initialize" && c.t.refuseInitialize {
		return errNoFallback
	}
	c.t.rec.add(true, m)
	return c.Connection.Write(ctx, m)
}

// A recording is the messages of one connection, in order.
type recording struct {
	start time.Time
	mu    sync.Mutex
	msgs  []recorded
}

type recorded struct {
	sent bool
	at   time.Duration
	msg  jsonrpc.Message
}

func (r *recording) add(sent bool, m jsonrpc.Message) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.msgs = append(r.msgs, recorded{sent: sent, at: time.Since(r.start), msg: m})
}

// firstReply is when the first response arrived, or zero.
func (r *recording) firstReply() time.Duration {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, m := range r.msgs {
		if _, ok := m.msg.(*jsonrpc.Response); ok && !m.sent {
			return m.at
		}
	}
	return 0
}

// lastReply returns the reply to the last request sent for method, as the
// server wrote it.
func (r *recording) lastReply(method string) (wireMsg, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	var id jsonrpc.ID
	found := false
	for _, m := range r.msgs {
		if req, ok := m.msg.(*jsonrpc.Request); ok && m.sent && req.Method == method && req.IsCall() {
			id, found = req.ID, true
		}
	}
	if !found {
		return wireMsg{}, false
	}
	for _, m := range r.msgs {
		if resp, ok := m.msg.(*jsonrpc.Response); ok && !m.sent && resp.ID == id {
			data, err := jsonrpc.EncodeMessage(resp)
			if err != nil {
				return wireMsg{}, false
			}
			return parseMessage(data), true
		}
	}
	return wireMsg{}, false
}
