package surface

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/instrlab/instrlab/internal/fakeapi"
	"github.com/instrlab/instrlab/internal/labvocab"
	"github.com/instrlab/instrlab/internal/unit"
	"github.com/instrlab/instrlab/lab"
)

// How a server answered a call (CallFacts.Answer).
const (
	AnswerResult  = "result"
	AnswerError   = "error"     // a JSON-RPC error
	AnswerNone    = "no answer" // none in the log
	AnswerNotKept = "not kept"  // a reply too long for the log to keep
)

// CallFacts say what became of one tool call the fake asked for.
type CallFacts struct {
	// Tool is the server's name of the tool, Name the name the model
	// called it by (the one the client offered), ID the call's id.
	Tool string `json:"tool"`
	Name string `json:"name"`
	// Namespace is the namespace the tool was offered in (Codex's
	// mcp__SERVER), which the call named beside Name.
	Namespace string `json:"namespace,omitempty"`
	// Deferred is the client's name of the tool when the model called it
	// through the client's invoker of loaded tools (Qwen Code's
	// tool_call), which is then Name.
	Deferred string `json:"deferred,omitempty"`
	ID       string `json:"id"`
	// Request is the request the call answered.
	Request int `json:"request"`
	// Reached says the server got a tools/call for Tool (its log shows
	// it): the call made with the name the model saw went through.
	Reached bool `json:"reached"`
	// Answer is how the server answered (Answer*); Bytes its size.
	Answer string `json:"answer,omitempty"`
	Bytes  int    `json:"bytes,omitempty"`
	// Following is the request that carries the call's result, 0 when
	// the client sent none.
	Following int `json:"following,omitempty"`
	// IsError is the result's isError; Flagged says the request marks the
	// result as an error (Anthropic's is_error).
	IsError bool `json:"is_error,omitempty"`
	Flagged bool `json:"flagged,omitempty"`
	// Parts are the result's parts and where each arrived.
	Parts []Found `json:"parts,omitempty"`
	// Instead, when a part did not arrive whole, the call never reached
	// the server or the client gave up on it, is how the call's tool
	// result in the following request begins (its first InsteadRunes
	// characters), and ResultChars that
	// result's length: what the model got in its place (a client's error
	// or refusal, a file's path, the part cut).
	Instead     string `json:"instead,omitempty"`
	ResultChars int    `json:"result_chars,omitempty"`
	// GaveUp, for a call the client gave up on before the server
	// answered it, says when and how; nil for any other.
	GaveUp *GaveUp `json:"gave_up,omitempty"`
}

// GaveUp is how a client gave up on a call the server had not answered,
// in milliseconds from the server's receipt of the call (the server's log
// and the fake API's record, both on the machine's clock).
type GaveUp struct {
	// CancelMS is when the client cancelled the call
	// (notifications/cancelled naming its id), Reason the reason it gave;
	// nil when it sent none.
	CancelMS *float64 `json:"cancel_ms,omitempty"`
	Reason   string   `json:"reason,omitempty"`
	// ResultMS is when the request that carries a result for the call
	// reached the model API, when it came before the server's answer (or
	// with none at all), or after a cancel; nil for none.
	ResultMS *float64 `json:"result_ms,omitempty"`
	// AnswerMS is when the server answered after all, into a call the
	// client had given up on; nil when it never did.
	AnswerMS *float64 `json:"answer_ms,omitempty"`
}

// AfterMS is when the client gave up: the first of its cancel and the
// request that carried a result.
func (g GaveUp) AfterMS() float64 {
	switch {
	case g.CancelMS != nil && g.ResultMS != nil:
		return min(*g.CancelMS, *g.ResultMS)
	case g.CancelMS != nil:
		return *g.CancelMS
	case g.ResultMS != nil:
		return *g.ResultMS
	}
	return 0
}

// What became of a call the model made (CallFacts.Fate).
const (
	// FateRan: the server got the call and its result reached the model.
	FateRan = "ran"
	// FateRefused: the server never got the call and the model got the
	// client's words instead (a refusal, a denied permission, an error).
	FateRefused = "refused"
	// FateNoResult: the model got no result for the call: the run ended
	// first (a client waiting for an approval nobody gives, or one that
	// stopped).
	FateNoResult = "no result"
)

// Fate says what became of the call: FateRan, FateRefused or
// FateNoResult. A call the server got whose result reached no request is
// FateNoResult too.
func (c CallFacts) Fate() string {
	switch {
	case c.Following == 0:
		return FateNoResult
	case c.Reached:
		return FateRan
	default:
		return FateRefused
	}
}

// InsteadRunes is how much of a tool result CallFacts.Instead keeps.
const InsteadRunes = 200

// A Request is one recorded model request with its decoded context.
type Request struct {
	fakeapi.Request
	Context fakeapi.Context
}

// Contexts decodes the model requests among reqs; requests of no known
// API shape, without a body or counting tokens are left out, and a body
// that does not decode is a warning.
func Contexts(reqs []fakeapi.Request) ([]Request, []string) {
	var out []Request
	var warns []string
	for _, q := range reqs {
		api, ok := fakeapi.Lookup(q.API)
		if !ok || len(q.Body) == 0 || countsTokens(q.Path) {
			continue
		}
		ctx, err := api.Context(q.Body)
		if err != nil {
			warns = append(warns, fmt.Sprintf("request %d: %v", q.Seq, err))
			continue
		}
		out = append(out, Request{Request: q, Context: ctx})
	}
	return out, warns
}

// countsTokens reports whether path is a token-counting endpoint
// (Anthropic's /v1/messages/count_tokens, Gemini's MODEL:countTokens),
// whose request repeats the context but is not a model turn.
func countsTokens(path string) bool {
	return strings.HasSuffix(path, "/count_tokens") || strings.HasSuffix(path, ":countTokens")
}

// Calls follows every scripted call of reqs of a tool the server listed
// (the loader's calls and the client's own tools apart):
// whether the server got it (log), how it answered, and where each part of
// the answer arrived in the request that followed.
func Calls(reqs []Request, log []lab.Entry) []CallFacts {
	calls := serverCalls(log)
	listed := map[string]bool{}
	for _, t := range listedTools(log) {
		listed[t.Name] = true
	}
	used := map[int]bool{}
	var out []CallFacts
	for i, r := range reqs {
		if len(r.Loading) > 0 {
			continue
		}
		for _, c := range r.Calls {
			if len(listed) > 0 && !listed[c.Tool] {
				continue // a tool of the client's own (Bash), not the server's
			}
			f := CallFacts{Tool: c.Tool, Name: c.Name, Namespace: c.Namespace, Deferred: c.Deferred, ID: c.ID, Request: r.Seq}
			var reply *serverCall
			for k := range calls {
				if !used[k] && calls[k].name == c.Tool {
					used[k], reply, f.Reached = true, &calls[k], true
					break
				}
			}
			var parts []Part
			next := following(reqs[i+1:], c)
			if next == nil {
				// The client sent the call back under an id of its
				// own: answered by that id.
				if id := echoedID(r, reqs[i+1:], c); id != "" {
					c.ID = id
					next = following(reqs[i+1:], c)
				}
			}
			if reply != nil {
				f.GaveUp = reply.gaveUp(next)
				f.Answer, f.Bytes = reply.answer, reply.bytes
				if len(reply.body) > 0 {
					parts, f.IsError, _ = Parts(reply.body)
				}
			}
			if next == nil {
				out = append(out, f)
				continue
			}
			f.Following = next.Seq
			for _, s := range next.Context {
				if s.Kind == fakeapi.KindToolResult && resultOf(s, c) && s.Error {
					f.Flagged = true
				}
			}
			call := answeredAs(next.Context, c)
			for _, p := range parts {
				f.Parts = append(f.Parts, Locate(next.Context, call, p))
			}
			markSame(f.Parts, parts)
			if !f.Reached || f.GaveUp != nil || slices.ContainsFunc(f.Parts, func(p Found) bool { return !p.Full }) {
				f.Instead, f.ResultChars = instead(next.Context, c)
			}
			out = append(out, f)
		}
	}
	return out
}

// instead is how the tool results answering c in ctx begin, joined (to
// InsteadRunes characters), and their whole length in characters.
func instead(ctx fakeapi.Context, c fakeapi.ToolCall) (string, int) {
	var heads []string
	n := 0
	for _, s := range ctx {
		if s.Kind == fakeapi.KindToolResult && resultOf(s, c) && s.Text != "" {
			if len(heads) > 0 {
				n++ // the line break between two
			}
			heads = append(heads, unit.CodePoint.Prefix(s.Text, InsteadRunes))
			n += utf8.RuneCountInString(s.Text)
		}
	}
	return unit.CodePoint.Prefix(strings.Join(heads, "\n"), InsteadRunes), n
}

// following is the first of reqs that answers call c: it has a tool result
// for the call (by id, or by name where the API has none).
func following(reqs []Request, c fakeapi.ToolCall) *Request {
	for i := range reqs {
		for _, s := range reqs[i].Context {
			if s.Kind == fakeapi.KindToolResult && resultOf(s, c) {
				return &reqs[i]
			}
		}
	}
	return nil
}

// echoedID is the id under which a client sent call c, of r's reply,
// back to the model with ids of its own: in the first of later that holds
// more tool calls of c's name than r did (r's are the history, which
// later repeats first), the id of the one at c's place among the reply's
// calls of that name; "" when none has an id, or when the client kept the
// fake's ids (then c went unanswered).
func echoedID(r Request, later []Request, c fakeapi.ToolCall) string {
	before := len(echoedCalls(r.Context, c.Name))
	k := before
	for _, o := range r.Calls {
		if o.ID == c.ID {
			break
		}
		if o.Name == c.Name {
			k++
		}
	}
	for _, q := range later {
		ids := echoedCalls(q.Context, c.Name)
		if len(ids) <= before {
			continue
		}
		if k >= len(ids) || slices.ContainsFunc(r.Calls, func(o fakeapi.ToolCall) bool { return o.Answers(ids[k]) }) {
			return ""
		}
		return ids[k]
	}
	return ""
}

// echoedCalls are the ids of ctx's tool calls of the tool named name, in
// order.
func echoedCalls(ctx fakeapi.Context, name string) []string {
	var ids []string
	for _, s := range ctx {
		if s.Kind == fakeapi.KindAssistantTurn && s.Name == name && s.Call != "" {
			ids = append(ids, s.Call)
		}
	}
	return ids
}

func resultOf(s fakeapi.Segment, c fakeapi.ToolCall) bool {
	return c.Answers(s.Call) || (s.Call == c.Name && s.Call != "")
}

// answeredAs is the call id by which ctx answers c: the id as the client
// sent it back, else the tool's name (Gemini answers by name).
func answeredAs(ctx fakeapi.Context, c fakeapi.ToolCall) string {
	for _, s := range ctx {
		if s.Kind == fakeapi.KindToolResult && c.Answers(s.Call) {
			return s.Call
		}
	}
	return c.Name
}

// A serverCall is one tools/call the server's log shows: the tool name it
// got and how it answered.
type serverCall struct {
	name   string
	answer string
	bytes  int
	body   json.RawMessage
	// got is when the server got the call, answered when it answered
	// (zero for never), cancelled when the client cancelled it, and
	// reason the reason it gave.
	got, answered, cancelled time.Time
	reason                   string
}

// gaveUp says how the client gave up on the call, given next, the request
// that carries its result (nil for none): nil when it did not (the server
// answered before both, or nothing ended the call).
func (c serverCall) gaveUp(next *Request) *GaveUp {
	ms := func(t time.Time) *float64 {
		v := float64(t.Sub(c.got).Microseconds()) / 1000
		return &v
	}
	before := func(t time.Time) bool { return !t.IsZero() && (c.answered.IsZero() || t.Before(c.answered)) }
	var g GaveUp
	if before(c.cancelled) {
		g.CancelMS, g.Reason = ms(c.cancelled), c.reason
	}
	if next != nil && (g.CancelMS != nil || before(next.Time)) {
		g.ResultMS = ms(next.Time)
	}
	if g.CancelMS == nil && g.ResultMS == nil || c.got.IsZero() {
		return nil
	}
	if !c.answered.IsZero() {
		g.AnswerMS = ms(c.answered)
	}
	return &g
}

// serverCalls reads the tools/call requests of a message log, in order,
// each with its reply (matched by id).
func serverCalls(log []lab.Entry) []serverCall {
	var out []serverCall
	byID := map[string]int{}
	for _, e := range log {
		if e.Dir == lab.Recv && e.Kind == lab.KindNotification && e.Method == labvocab.Cancelled {
			var n struct {
				Params struct {
					RequestID json.RawMessage `json:"requestId"`
					Reason    string          `json:"reason"`
				} `json:"params"`
			}
			if json.Unmarshal(e.Body, &n) != nil {
				continue // a cancel the log kept no body of (evidence from before it did)
			}
			if k, ok := byID[string(bytes.TrimSpace(n.Params.RequestID))]; ok && out[k].cancelled.IsZero() {
				out[k].cancelled, out[k].reason = e.Time, unit.CodePoint.Clip(n.Params.Reason, InsteadRunes)
			}
			continue
		}
		if e.Method != "tools/call" {
			continue
		}
		switch {
		case e.Dir == lab.Recv && e.Kind == lab.KindRequest:
			var req struct {
				Params struct {
					Name string `json:"name"`
				} `json:"params"`
			}
			json.Unmarshal(e.Body, &req)
			byID[string(bytes.TrimSpace(e.ID))] = len(out)
			out = append(out, serverCall{name: req.Params.Name, answer: AnswerNone, got: e.Time})
		case e.Dir == lab.Send && (e.Kind == lab.KindResponse || e.Kind == lab.KindError):
			k, ok := byID[string(bytes.TrimSpace(e.ID))]
			if !ok {
				continue
			}
			c := &out[k]
			c.bytes, c.body, c.answer, c.answered = e.Bytes, e.Body, AnswerResult, e.Time
			switch {
			case e.Kind == lab.KindError:
				c.answer = AnswerError
			case len(e.Body) == 0:
				c.answer = AnswerNotKept
			}
		}
	}
	return out
}

// A Missed call is a scripted call the run never made, and why, as far as
// the evidence tells: a client that never makes the call is reported as
// such, never as a result it dropped.
type Missed struct {
	Tool string `json:"tool"`
	Why  string `json:"why"`
}

// Why a scripted call was not made (Missed.Why).
const (
	MissedNotListed  = "the server did not list it"
	MissedNotOffered = "the client never offered it to the model"
	MissedNoCall     = "offered, but no request led to the call"
)

// NotCalled lists the calls of script that calls does not hold (a tool
// scripted twice and called once is missed once), each with why: the
// server's log does not list the tool (a name the server does not have, or
// a server not up in time), no request defines it, or it was offered and
// still not called (the client sent no request after it was).
func NotCalled(script []fakeapi.Turn, calls []CallFacts, defs []ToolDef) []Missed {
	made := map[string]int{}
	for _, c := range calls {
		made[c.Tool]++
	}
	var out []Missed
	for _, t := range script {
		tools := make([]string, 0, 1+len(t.Calls))
		if t.Tool != "" {
			tools = append(tools, t.Tool)
		}
		for _, c := range t.Calls {
			tools = append(tools, c.Tool)
		}
		for _, tool := range tools {
			if made[tool] > 0 {
				made[tool]--
				continue
			}
			why := MissedNotListed
			if i := slices.IndexFunc(defs, func(d ToolDef) bool { return d.Tool == tool }); i >= 0 {
				why = MissedNoCall
				if defs[i].Via == ViaNone {
					why = MissedNotOffered
				}
			}
			out = append(out, Missed{Tool: tool, Why: why})
		}
	}
	return out
}

// Reached says which of a result's content text and structuredContent
// reached the model, of the parts Locate found.
func Reached(parts []Found) (text, structured bool) {
	for _, p := range parts {
		switch {
		case !p.Reached:
		case strings.HasPrefix(p.Part, "content["):
			text = true
		case p.Part == "structuredContent":
			structured = true
		}
	}
	return text, structured
}
