package lab

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
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
	params json.RawMessage // params as sent; nil when absent
	code   int             // for an invalid message: the JSON-RPC error to answer
	note   string          // for an invalid message: why
	unread bool            // for an invalid message: valid JSON nested deeper than MaxDepth
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
	case Deeper(trimmed, MaxDepth):
		m := invalid(-32700, fmt.Sprintf("JSON nested deeper than %d levels, the most encoding/json reads", MaxDepth), nil)
		m.unread = true
		return m
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
		m.method, m.params = method, wire.Params
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
	if string(wire.ID) == "null" && wire.Error != nil && wire.Result == nil {
		// An error not tied to a request (JSON-RPC 2.0, section 5: the id
		// is null when it could not be read), as the lab itself and
		// server-everything's HTTP transport (400 Bad Request) send.
		m.kind = KindError
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
// an integer (of any size: the lab answers with the bytes it was sent), or
// null. A fractional or exponent id is refused rather than rounded.
func validID(raw json.RawMessage) bool {
	switch {
	case len(raw) == 0:
		return false
	case raw[0] == '"':
		var s string
		return json.Unmarshal(raw, &s) == nil
	case raw[0] == 'n':
		return string(raw) == "null"
	}
	digits := bytes.TrimPrefix(raw, []byte("-"))
	if len(digits) == 0 {
		return false
	}
	for _, c := range digits {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// maxExactInt is the largest integer the SDK answers with the id it was
// sent: it decodes ids through float64.
const maxExactInt = 1 << 53

// sdkExactID reports whether the SDK, given a request with this valid id,
// answers with the same id: an integer within ±2^53, or a string without a
// lone surrogate escape (the SDK would answer with U+FFFD in its place).
// The stdio transport hands the SDK ids of its own and needs no such check;
// over HTTP the SDK reads the body itself.
func sdkExactID(raw json.RawMessage) bool {
	if raw[0] == '"' {
		return !loneSurrogate(raw)
	}
	if raw[0] == 'n' {
		return true
	}
	n, err := strconv.ParseInt(string(raw), 10, 64)
	return err == nil && -maxExactInt <= n && n <= maxExactInt
}

// loneSurrogate reports whether the JSON string s holds a \uD800-\uDFFF
// escape that is not half of a surrogate pair.
func loneSurrogate(s []byte) bool {
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 >= len(s) {
			continue
		}
		if s[i+1] != 'u' {
			i++ // \\, \" and the like: skip the escaped byte
			continue
		}
		v, ok := hex4(s, i+2)
		if !ok {
			continue
		}
		switch {
		case 0xDC00 <= v && v < 0xE000:
			return true
		case 0xD800 <= v && v < 0xDC00:
			w, ok := hex4(s, i+8)
			if i+7 >= len(s) || s[i+6] != '\\' || s[i+7] != 'u' || !ok || w < 0xDC00 || w >= 0xE000 {
				return true
			}
			i += 11
		default:
			i += 5
		}
	}
	return false
}

func hex4(s []byte, at int) (rune, bool) {
	if at+4 > len(s) {
		return 0, false
	}
	v, err := strconv.ParseUint(string(s[at:at+4]), 16, 16)
	return rune(v), err == nil
}

// errorResponse is the line answering an invalid message or an unknown method.
// resultResponse is a JSON-RPC response to id with result.
func resultResponse(id, result json.RawMessage) []byte {
	b, _ := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Result  json.RawMessage `json:"result"`
	}{"2.0", id, result})
	return b
}

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

// encodeResponse encodes r, a response the SDK made to a request it knew
// by its own integer id, with id, the request's id as the client sent it. A
// successful result is written as {"jsonrpc":"2.0","id":ID,"result":RESULT}
// without the SDK's second pass over the result, which it has already
// marshalled compactly (for tools/list, a tenth of the server's time).
func encodeResponse(r *jsonrpc.Response, id json.RawMessage) ([]byte, error) {
	if r.Error == nil && len(r.Result) > 0 && bytes.IndexByte(r.Result, '\n') < 0 {
		data := make([]byte, 0, len(r.Result)+len(id)+32)
		data = append(data, `{"jsonrpc":"2.0","id":`...)
		data = append(data, id...)
		data = append(data, `,"result":`...)
		data = append(data, r.Result...)
		return append(data, '}'), nil
	}
	data, err := jsonrpc.EncodeMessage(r)
	if err != nil {
		return nil, err
	}
	// The SDK writes the fields in this order (jsonrpc2's wireCombined).
	n, _ := r.ID.Raw().(int64)
	prefix := strconv.AppendInt([]byte(`{"jsonrpc":"2.0","id":`), n, 10)
	rest, ok := bytes.CutPrefix(data, prefix)
	if !ok {
		return nil, fmt.Errorf("encoding response: unexpected shape %.40q", data)
	}
	out := make([]byte, 0, len(data)+len(id))
	out = append(out, `{"jsonrpc":"2.0","id":`...)
	out = append(out, id...)
	return append(out, rest...), nil
}

// sdkRequest returns the request the SDK's jsonrpc.DecodeMessage makes of
// line, which classify found to be the request or notification m, without
// reading line again: DecodeMessage reads through a decoder that allocates
// a 32 KiB buffer, twice a message, which with the garbage collection it
// caused was a fifth of the CPU of pipelined tools/list
// (BenchmarkToolsList). It reports false for any line the SDK's decoder
// could read otherwise than classify did, and the caller decodes it as
// before: a top-level key written with an escape, repeated, or in other
// case than the SDK's (its decoder matches keys exactly, classify's does
// not), a result or error key, a method or id with an escape, a long
// integer id, params that are not an object, or deep nesting (the SDK
// refuses more than 1,000 levels). FuzzSDKRequest holds it to
// DecodeMessage.
func sdkRequest(line []byte, m message) (*jsonrpc.Request, bool) {
	if (m.kind != KindRequest && m.kind != KindNotification) || !plainEnvelope(line) {
		return nil, false
	}
	if len(m.params) > 0 && m.params[0] != '{' {
		return nil, false
	}
	if m.id != nil && (bytes.IndexByte(m.id, '\\') >= 0 || (m.id[0] != '"' && len(m.id) > 15)) {
		return nil, false
	}
	req := &jsonrpc.Request{Method: m.method, Params: m.params}
	if m.id != nil { // as DecodeMessage reads it: a string, or a number through float64
		var v any
		if m.id[0] == '"' {
			v = string(m.id[1 : len(m.id)-1])
		} else {
			f, err := strconv.ParseFloat(string(m.id), 64)
			if err != nil {
				return nil, false
			}
			v = f
		}
		id, err := jsonrpc.MakeID(v)
		if err != nil {
			return nil, false
		}
		req.ID = id
	}
	return req, true
}

// maxPlainDepth bounds the nesting sdkRequest takes on itself, far below
// the SDK's own bound.
const maxPlainDepth = 64

// plainEnvelope reports whether the JSON object line (valid JSON) has
// top-level keys the SDK's decoder and encoding/json read alike: none
// escaped, none of jsonrpc, id, method and params repeated, none that
// differs from one of the JSON-RPC names only in case, no result or error,
// and a method value without escapes; and whether it nests at most
// maxPlainDepth levels.
func plainEnvelope(line []byte) bool {
	var seen [4]bool
	depth, method := 0, false
	for i := 0; i < len(line); i++ {
		switch line[i] {
		case '{', '[':
			if depth++; depth > maxPlainDepth {
				return false
			}
		case '}', ']':
			depth--
		case '"':
			start, escaped := i+1, false
			for i++; line[i] != '"'; i++ {
				if line[i] == '\\' {
					escaped = true
					i++
				}
			}
			if method {
				if escaped {
					return false
				}
				method = false
				continue
			}
			if depth != 1 || !isKey(line, i+1) {
				continue
			}
			if escaped {
				return false
			}
			key := line[start:i]
			k := slices.IndexFunc(envelopeKeys, func(name string) bool { return bytes.EqualFold(key, []byte(name)) })
			switch {
			case k < 0:
			case k >= len(seen) || string(key) != envelopeKeys[k] || seen[k]:
				return false
			default:
				seen[k] = true
				method = k == 2
			}
		}
	}
	return true
}

// envelopeKeys are the keys of a JSON-RPC message, those sdkRequest takes
// first.
var envelopeKeys = []string{"jsonrpc", "id", "method", "params", "result", "error"}

// isKey reports whether the string that ended before line[at] is an
// object's key: a colon follows it.
func isKey(line []byte, at int) bool {
	for ; at < len(line); at++ {
		switch line[at] {
		case ' ', '\t', '\n', '\r':
		case ':':
			return true
		default:
			return false
		}
	}
	return false
}

// MaxDepth is how deep encoding/json reads nested JSON: a deeper message
// may be valid, but neither the log nor check can read it.
const MaxDepth = 10000

// Deeper reports whether JSON text data nests arrays and objects deeper
// than max, counting outside strings.
func Deeper(data []byte, max int) bool {
	depth, in, esc := 0, false, false
	for _, c := range data {
		switch {
		case esc:
			esc = false
		case in && c == '\\':
			esc = true
		case c == '"':
			in = !in
		case in:
		case c == '{' || c == '[':
			if depth++; depth > max {
				return true
			}
		case c == '}' || c == ']':
			depth--
		}
	}
	return false
}
