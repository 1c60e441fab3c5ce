package lab

import (
	"bytes"
	"encoding/json"
	"strconv"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// Kinds of logged messages.
const (
	KindRequest      = "request"
	KindNotification = "notification"
	KindResponse     = "response"
	KindError        = "error"   // an error response
	KindInvalid      = "invalid" // a line that is not a valid JSON-RPC message
	KindEmpty        = "empty"   // an empty or white-space line, ignored
)

// A message is what the lab learns of one JSON-RPC message before the SDK
// sees it.
type message struct {
	kind   string
	method string
	id     json.RawMessage // as sent; nil when absent
	meta   json.RawMessage // params._meta
	code   int             // for an invalid message: the JSON-RPC error to answer
	note   string          // for an invalid message: why
	// replyID is the id to answer an invalid message with: its own id when
	// that id is valid, JSON null otherwise.
	replyID json.RawMessage
}

var jsonNull = json.RawMessage("null")

// classify checks one line as a JSON-RPC 2.0 message the way the
// specification prescribes, without the SDK.
func classify(line []byte) message {
	trimmed := bytes.TrimSpace(line)
	switch {
	case len(trimmed) == 0:
		return message{kind: KindEmpty}
	case !utf8.Valid(trimmed):
		return invalid(-32700, "not valid UTF-8", nil)
	case !json.Valid(trimmed):
		return invalid(-32700, "not valid JSON", nil)
	case trimmed[0] == '[':
		return invalid(-32600, "batch arrays are not supported (removed in protocol 2025-06-18)", nil)
	case trimmed[0] != '{':
		return invalid(-32600, "a message must be a JSON object", nil)
	}
	var wire struct {
		JSONRPC json.RawMessage `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Method  json.RawMessage `json:"method"`
		Params  json.RawMessage `json:"params"`
		Result  json.RawMessage `json:"result"`
		Error   json.RawMessage `json:"error"`
	}
	if err := json.Unmarshal(trimmed, &wire); err != nil {
		return invalid(-32600, "not a JSON-RPC message: "+err.Error(), nil)
	}
	m := message{id: wire.ID}
	idOK := wire.ID == nil || validID(wire.ID)
	if !idOK {
		return invalid(-32600, "id must be a string or an integer", nil)
	}
	if string(wire.JSONRPC) != `"2.0"` {
		return invalid(-32600, `jsonrpc must be "2.0"`, wire.ID)
	}
	if wire.Method != nil {
		var method string
		if err := json.Unmarshal(wire.Method, &method); err != nil || method == "" {
			return invalid(-32600, "method must be a non-empty string", wire.ID)
		}
		m.method = method
		switch {
		case wire.ID == nil:
			m.kind = KindNotification
		case string(wire.ID) == "null":
			return invalid(-32600, "a request id must not be null", nil)
		default:
			m.kind = KindRequest
		}
		if len(wire.Params) > 0 && wire.Params[0] != '{' && string(wire.Params) != "null" {
			return invalid(-32600, "params must be an object", wire.ID)
		}
		var p struct {
			Meta json.RawMessage `json:"_meta"`
		}
		if json.Unmarshal(wire.Params, &p) == nil {
			m.meta = p.Meta
		}
		return m
	}
	if wire.ID == nil || string(wire.ID) == "null" || (wire.Result == nil) == (wire.Error == nil) {
		return invalid(-32600, "neither a request nor a response", wire.ID)
	}
	m.kind = KindResponse
	if wire.Error != nil {
		m.kind = KindError
	}
	return m
}

func invalid(code int, note string, id json.RawMessage) message {
	reply := jsonNull
	if id != nil && validID(id) {
		reply = id
	}
	return message{kind: KindInvalid, code: code, note: note, id: id, replyID: reply}
}

// validID reports whether raw is a JSON-RPC id the lab answers to: a string,
// an integer that fits in 64 bits, or null. A fractional id is refused rather
// than rounded, since the SDK would answer with a different id.
func validID(raw json.RawMessage) bool {
	switch raw[0] {
	case '"':
		var s string
		return json.Unmarshal(raw, &s) == nil
	case 'n':
		return string(raw) == "null"
	}
	_, err := strconv.ParseInt(string(raw), 10, 64)
	return err == nil
}

// errorResponse is the line answering an invalid message or an unknown method.
func errorResponse(id json.RawMessage, code int, msg string) []byte {
	if id == nil {
		id = jsonNull
	}
	b, _ := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}{JSONRPC: "2.0", ID: id, Error: struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	}{code, msg}})
	return b
}

// encodeResult encodes a successful response with an integer id exactly as
// jsonrpc.EncodeMessage does, {"jsonrpc":"2.0","id":ID,"result":RESULT},
// without the SDK's second pass over the result, which the SDK has already
// marshalled compactly (for tools/list, a tenth of the server's time). It
// returns the line and its id, and false for anything else, which the caller
// leaves to the SDK.
func encodeResult(r *jsonrpc.Response) (data, id []byte, ok bool) {
	n, isInt := r.ID.Raw().(int64)
	if r.Error != nil || len(r.Result) == 0 || !isInt || bytes.IndexByte(r.Result, '\n') >= 0 {
		return nil, nil, false
	}
	data = make([]byte, 0, len(r.Result)+64)
	data = append(data, `{"jsonrpc":"2.0","id":`...)
	start := len(data)
	data = strconv.AppendInt(data, n, 10)
	id = data[start:len(data):len(data)]
	data = append(data, `,"result":`...)
	data = append(data, r.Result...)
	data = append(data, '}')
	return data, id, true
}
