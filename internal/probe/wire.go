package probe

import (
	"bytes"
	"encoding/json"
	"strconv"

	"github.com/instrlab/instrlab/lab"
)

// Kinds of lines a server writes, in the lab's words (lab.Kind*), which
// the message log uses too.
const (
	kindResponse     = lab.KindResponse
	kindError        = lab.KindError
	kindRequest      = lab.KindRequest
	kindNotification = lab.KindNotification
	kindInvalid      = lab.KindInvalid // not a JSON-RPC 2.0 message
)

// An RPCError is a JSON-RPC error object as a server sent it.
type RPCError struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

// A wireMsg is one message read from a server, decoded just enough to route
// it.
type wireMsg struct {
	kind   string
	id     json.RawMessage
	method string
	result json.RawMessage
	err    *RPCError
	why    string // for kindInvalid
	deep   bool   // kindInvalid: JSON nested deeper than lab.MaxDepth
}

// parseMessage decodes one line (or HTTP body) from a server. It never fails:
// what is not a JSON-RPC 2.0 message comes back as kindInvalid with a reason.
// It reads as a client does, leniently, where the lab's classifier (which
// answers for a server) refuses what the specification forbids: an id
// written 1.0, a null id on an error reply, a result beside "error": null
// are replies here and invalid there. A stray line check reports is one
// no client could read at all.
func parseMessage(data []byte) wireMsg {
	data = bytes.TrimSpace(data)
	if len(data) == 0 || data[0] != '{' {
		return wireMsg{kind: kindInvalid, why: "not a JSON object"}
	}
	var w struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Method  *string         `json:"method"`
		Result  json.RawMessage `json:"result"`
		Error   json.RawMessage `json:"error"`
	}
	if err := json.Unmarshal(data, &w); err != nil {
		return wireMsg{kind: kindInvalid, why: "not JSON-RPC: " + err.Error(), deep: lab.Deeper(data, lab.MaxDepth)}
	}
	if w.JSONRPC != "2.0" {
		return wireMsg{kind: kindInvalid, why: `jsonrpc is not "2.0"`}
	}
	m := wireMsg{id: w.ID}
	if w.Method != nil {
		m.method = *w.Method
		m.kind = kindNotification
		if w.ID != nil && string(w.ID) != "null" {
			m.kind = kindRequest
		}
		return m
	}
	switch {
	case w.Error != nil && string(w.Error) != "null":
		var e RPCError
		if err := json.Unmarshal(w.Error, &e); err != nil {
			return wireMsg{kind: kindInvalid, id: w.ID, why: "malformed error object: " + err.Error()}
		}
		m.kind, m.err = kindError, &e
	case w.Result != nil:
		m.kind, m.result = kindResponse, w.Result
	default:
		return wireMsg{kind: kindInvalid, id: w.ID, why: "neither a request nor a response"}
	}
	return m
}

// sameID reports whether two JSON-RPC ids are equal: the same string, or the
// same number however it is written.
func sameID(a, b json.RawMessage) bool {
	a, b = bytes.TrimSpace(a), bytes.TrimSpace(b)
	if bytes.Equal(a, b) {
		return len(a) > 0
	}
	if len(a) == 0 || len(b) == 0 || a[0] == '"' || b[0] == '"' {
		return false
	}
	x, err1 := strconv.ParseFloat(string(a), 64)
	y, err2 := strconv.ParseFloat(string(b), 64)
	return err1 == nil && err2 == nil && x == y
}

// clip shortens s to n bytes at a rune boundary, for quoting what a server
// sent.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

func utf8RuneStart(b byte) bool { return b&0xC0 != 0x80 }
