package lab

import (
	"encoding/json"
	"sync"
)

// A tracker follows one connection's requests, so that the log can name the
// method each response answers and the lab knows when the handshake is done.
type tracker struct {
	mu         sync.Mutex
	pending    map[string]string // request id → method
	asks       map[string]string // the id of a request the server sent → method
	handshaken bool
}

// asked returns the method of the server's request that a response with
// this id answers, "" for none.
func (t *tracker) asked(id json.RawMessage) string {
	t.mu.Lock()
	defer t.mu.Unlock()
	method := t.asks[string(id)]
	delete(t.asks, string(id))
	return method
}

func (t *tracker) received(m message) {
	if m.kind == KindRequest {
		t.receivedAs(string(m.id), m.method)
	}
}

// receivedAs notes a request of method, whose response the lab will name
// by key.
func (t *tracker) receivedAs(key, method string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.pending == nil {
		t.pending = make(map[string]string)
	}
	t.pending[key] = method
}

// answered returns the method of the request that a response with this id
// answers, and marks the handshake done when it succeeded.
func (t *tracker) answered(id json.RawMessage, ok bool) string {
	t.mu.Lock()
	defer t.mu.Unlock()
	method := t.pending[string(id)]
	delete(t.pending, string(id))
	if ok && (method == "initialize" || method == "server/discover") {
		t.handshaken = true
	}
	return method
}

// forget drops a request that will never be answered.
func (t *tracker) forget(id json.RawMessage) {
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.pending, string(id))
}

// inFlight counts the requests not answered yet.
func (t *tracker) inFlight() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.pending)
}

func (t *tracker) done() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.handshaken
}

// sentEntry describes one outgoing JSON-RPC message for the log.
func (t *tracker) sentEntry(data []byte) Entry {
	var wire struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Error  *struct {
			Code int `json:"code"`
		} `json:"error"`
	}
	e := Entry{Dir: Send, Bytes: len(data)}
	if err := json.Unmarshal(data, &wire); err != nil {
		e.Kind, e.Raw, e.Note = KindInvalid, string(data), "the lab sent a line it cannot parse"
		return e
	}
	e.ID = wire.ID
	switch {
	case wire.Method != "":
		e.Kind, e.Method = KindRequest, wire.Method
		if wire.ID == nil {
			e.Kind = KindNotification
		} else {
			t.mu.Lock()
			if t.asks == nil {
				t.asks = make(map[string]string)
			}
			t.asks[string(wire.ID)] = wire.Method
			t.mu.Unlock()
		}
		keepBody(&e, data)
	case wire.Error != nil:
		code := wire.Error.Code
		e.Kind, e.Error = KindError, &code
		e.Method = t.answered(wire.ID, false)
		keepBody(&e, data)
	default:
		e.Kind = KindResponse
		e.Method = t.answered(wire.ID, true)
		keepBody(&e, data)
	}
	return e
}
