package probe

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/instrlab/instrlab/internal/cli"
	"github.com/instrlab/instrlab/internal/tokens"
	"github.com/instrlab/instrlab/internal/unit"
)

// A Call is a tool check calls once, after listing the tools, in the
// legacy era (initialize, as every client in use connects), or in the
// modern era when the server answers no initialize (a modern-only
// server): its name and its arguments, a JSON object (nil for none).
type Call struct {
	Tool  string          `json:"tool"`
	Input json.RawMessage `json:"input,omitempty"`
}

// ParseCalls reads check's -call values (cli.ParseCall).
func ParseCalls(ss []string) ([]Call, error) {
	var out []Call
	for _, s := range ss {
		tool, in, err := cli.ParseCall(s)
		if err != nil {
			return nil, err
		}
		out = append(out, Call{Tool: tool, Input: in})
	}
	return out, nil
}

// A CallResult is what one call of a tool returned, measured: never the
// result's text itself, which may be long and is the server's.
type CallResult struct {
	Tool  string          `json:"tool"`
	Input json.RawMessage `json:"input,omitempty"`
	// Outcome is ok (a result), error (a JSON-RPC error), silent (no
	// reply within the timeout), exit (the server exited first), invalid
	// (a result that is not a CallToolResult) or not-listed (NotListed:
	// not called); Detail says more when it is not ok.
	Outcome Outcome `json:"outcome"`
	Detail  string  `json:"detail,omitempty"`
	Elapsed Millis  `json:"elapsed_ms"`
	// IsError is the result's isError.
	IsError bool `json:"is_error,omitempty"`
	// Blocks counts the content blocks by type ("text": 1, "image": 1).
	Blocks map[string]int `json:"blocks,omitempty"`
	// Text is the size of the content's text blocks together, Structured
	// that of the structuredContent serialized as the server sent it;
	// nil when the result has none.
	Text       *Size `json:"text,omitempty"`
	Structured *Size `json:"structured,omitempty"`
	// Heard are the methods of the requests (elicitation/create,
	// roots/list: check, which declares no capability, answers -32601)
	// and notifications (notifications/message, notifications/progress,
	// notifications/tools/list_changed) the server sent while the call
	// ran, in order, the first 64.
	Heard []string `json:"heard,omitempty"`
	// StructuredType is the JSON type of the structuredContent when it is
	// not an object, as the specification requires ("null", "string",
	// "array", "number", "boolean"); "" when it is one or is absent. A
	// client may reject such a result (check predicts it from the
	// profiles' bad results).
	StructuredType string `json:"structured_type,omitempty"`
	// InputRequired are the methods a 2026-07-28 result of resultType
	// input_required asks the client for in its inputRequests
	// (elicitation/create, sampling/createMessage, roots/list), by key,
	// the first maxHeard;
	// check answers none and does not call again, so the call has no
	// content to measure.
	InputRequired []string `json:"input_required,omitempty"`
	// SameData is set when the content is one text block that holds the
	// structuredContent's JSON value (serialized again, in any spacing):
	// a client that gives the model only one of the two gives it the same
	// data.
	SameData bool `json:"same_data,omitempty"`
}

// A Size is a text's length in each unit a client may count it in, and
// the tokens it estimates (tokens.Count).
type Size struct {
	Chars  int `json:"chars"`
	UTF16  int `json:"utf16"`
	Bytes  int `json:"bytes"`
	Tokens int `json:"tokens"`
}

// SizeOf measures s.
func SizeOf(s string) Size {
	return Size{Chars: utf8.RuneCountInString(s), UTF16: unit.UTF16.Count(s), Bytes: len(s), Tokens: tokens.Count(s)}
}

// ASCII says whether the text is ASCII: its characters, UTF-16 units and
// bytes are one count.
func (s Size) ASCII() bool { return s.Chars == s.Bytes }

// NotListed is a call's outcome when the server's tools/list did not name
// the tool: it was not called (a config's other servers, a name mistyped).
const NotListed Outcome = "not-listed"

// callTools calls each of o.Calls that the era's tools/list named with
// call, each within o.Timeout, from id 1000; when tools/list failed, each
// is called.
func (r *EraResult) callTools(o Options, call func(id int, params map[string]any) (wireMsg, []string, error)) {
	for i, c := range o.Calls {
		if r.ToolsError == "" && !slices.ContainsFunc(r.Tools, func(t Tool) bool { return t.Name == c.Tool }) {
			r.Calls = append(r.Calls, CallResult{Tool: c.Tool, Input: c.Input, Outcome: NotListed,
				Detail: "the server's tools/list does not name it, so it was not called"})
			continue
		}
		params := map[string]any{"name": c.Tool}
		if len(c.Input) > 0 {
			params["arguments"] = c.Input
		} else {
			params["arguments"] = map[string]any{}
		}
		start := time.Now()
		m, heard, err := call(1000+i, params)
		res := CallResult{Tool: c.Tool, Input: c.Input, Elapsed: Millis(time.Since(start)), Heard: heard}
		switch {
		case errors.Is(err, errExited):
			res.Outcome, res.Detail = OutcomeExit, "the server exited before it answered"
		case errors.Is(err, errSilent):
			res.Outcome, res.Detail = OutcomeSilent, fmt.Sprintf("no reply within %v", o.Timeout)
		case errors.As(err, new(errTooLong)) || errors.Is(err, errTooDeep):
			res.Outcome, res.Detail = OutcomeInvalid, err.Error()
		case err != nil:
			res.Outcome, res.Detail = OutcomeError, clip(err.Error(), 200)
		case m.kind == kindError:
			res.Outcome, res.Detail = OutcomeError, fmt.Sprintf("error %d: %s", m.err.Code, clip(m.err.Message, 200))
		default:
			res.measure(m.result)
		}
		r.Calls = append(r.Calls, res)
	}
}

// measure reads a tools/call result: its content blocks, the size of
// their text, and of its structuredContent.
func (c *CallResult) measure(result json.RawMessage) {
	type block struct {
		Type string  `json:"type"`
		Text *string `json:"text"`
	}
	var w struct {
		Content           *[]block        `json:"content"`
		StructuredContent json.RawMessage `json:"structuredContent"`
		IsError           bool            `json:"isError"`
		ResultType        string          `json:"resultType"`
		InputRequests     map[string]struct {
			Method string `json:"method"`
		} `json:"inputRequests"`
	}
	if err := json.Unmarshal(result, &w); err != nil {
		c.Outcome, c.Detail = OutcomeInvalid, "the result is not a CallToolResult: "+clip(err.Error(), 200)
		return
	}
	if w.ResultType == "input_required" {
		for _, k := range slices.Sorted(maps.Keys(w.InputRequests)) {
			if len(c.InputRequired) == maxHeard {
				break
			}
			c.InputRequired = append(c.InputRequired, clip(w.InputRequests[k].Method, 100))
		}
		c.Outcome, c.Detail = OutcomeOK, "input_required: the server asks for input in its result (not given: check does not call again)"
		return
	}
	var blocks []block
	if w.Content == nil {
		c.Outcome, c.Detail = OutcomeInvalid, "the result has no content (required)"
	} else {
		c.Outcome, blocks = OutcomeOK, *w.Content
	}
	c.IsError = w.IsError
	var texts []string
	for _, b := range blocks {
		if c.Blocks == nil {
			c.Blocks = map[string]int{}
		}
		c.Blocks[b.Type]++
		if b.Type == "text" && b.Text != nil {
			texts = append(texts, *b.Text)
		}
	}
	if len(texts) > 0 {
		s := SizeOf(strings.Join(texts, "\n"))
		c.Text = &s
	}
	c.StructuredType = jsonType(w.StructuredContent)
	if len(w.StructuredContent) > 0 && string(w.StructuredContent) != "null" {
		s := SizeOf(string(w.StructuredContent))
		c.Structured = &s
		c.SameData = len(texts) == 1 && sameJSON(texts[0], w.StructuredContent)
	}
}

// jsonType is the JSON type of v when it is present and not an object
// ("null", "string", "array", "number", "boolean"), by its first byte.
func jsonType(v json.RawMessage) string {
	t := bytes.TrimLeft(v, " \t\r\n")
	if len(t) == 0 {
		return ""
	}
	switch t[0] {
	case '{':
		return ""
	case 'n':
		return "null"
	case '"':
		return "string"
	case '[':
		return "array"
	case 't', 'f':
		return "boolean"
	}
	return "number"
}

// sameJSON reports whether text is a JSON value equal to v.
func sameJSON(text string, v json.RawMessage) bool {
	var a, b any
	return json.Unmarshal([]byte(text), &a) == nil && json.Unmarshal(v, &b) == nil && reflect.DeepEqual(a, b)
}
