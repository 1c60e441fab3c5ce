package surface

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"sort"
	"time"

	"github.com/instrlab/instrlab/internal/fakeapi"
	"github.com/instrlab/instrlab/internal/labvocab"
	"github.com/instrlab/instrlab/internal/unit"
	"github.com/instrlab/instrlab/lab"
)

// ProtocolFacts say what a client did with what a server asked it
// (elicitation, sampling, roots) and announced (log messages, progress,
// tools/list_changed) while its tools ran, beside what the client declared
// it would do (docs/protocol.md).
type ProtocolFacts struct {
	// Declared are the capabilities of the client's initialize request
	// (or, in the 2026-07-28 protocol, of its first request's _meta), as
	// paths ("elicitation.form", "sampling", "roots.listChanged"); nil
	// when the log kept neither.
	Declared []string `json:"declared"`
	// Modern says the client spoke the 2026-07-28 protocol: no
	// initialize, its capabilities in its requests' _meta.
	Modern bool `json:"modern,omitempty"`
	// LogLevel is the level the client set (logging/setLevel), "" when it
	// set none.
	LogLevel string    `json:"log_level,omitempty"`
	Asks     []AskFact `json:"asks,omitempty"`
	Notices  []Notice  `json:"notices,omitempty"`
	Changed  *ListFact `json:"list_changed,omitempty"`
	// Tasked are the tools the client called as tasks (a task in the
	// tools/call params, the 2025-11-25 protocol's tasks), in the order
	// of their first such call.
	Tasked []string `json:"tasked,omitempty"`
	// Task is what the client did with the task the server answered a
	// call with (the tasks extension, resultType "task"); nil when the
	// server made none.
	Task *TaskFact `json:"task,omitempty"`
	// Resource is what the client did with the resource it may
	// subscribe to, which the server changed while a tool ran; nil when
	// it neither subscribed nor was sent notifications/resources/updated.
	Resource *ResourceFact `json:"resource,omitempty"`
}

// A ResourceFact says what a client did with a resource it may subscribe
// to: Subscribed, it subscribed (resources/subscribe, or the server sent
// it notifications/resources/updated, which goes to subscribers alone);
// Updated, the server sent it the notification; Reread, it read a
// resource again after that (resources/read); Model, the first model
// request holding what such a read returned (0 for none).
type ResourceFact struct {
	Subscribed bool `json:"subscribed"`
	Updated    bool `json:"updated"`
	Reread     bool `json:"reread,omitempty"`
	Model      int  `json:"model,omitempty"`
}

// A TaskFact is what a client did with a task the server made in place of
// a call's result: how often it asked for the task's state (tasks/get),
// the gaps between its asks in milliseconds, whether one answer said it
// completed, and the first model request holding that result's text (0
// for none).
type TaskFact struct {
	Polls     int       `json:"polls"`
	GapsMS    []float64 `json:"gaps_ms,omitempty"`
	Completed bool      `json:"completed,omitempty"`
	Model     int       `json:"model,omitempty"`
}

// How a client answered a request of the server (AskFact.Answer), besides
// an elicitation's action (accept, decline, cancel).
const (
	AskResult   = "result"
	AskNoAnswer = "no answer" // none in the log: the client never answered
	// AskMalformed: a result not of the request's shape (an elicitation's
	// action not accept, decline or cancel; a sampling result without
	// content; roots that are not a list).
	AskMalformed = "malformed result"
)

// An AskFact is one request the server sent the client and its answer.
type AskFact struct {
	Method string `json:"method"`
	// Mode is an elicitation's mode (form, url).
	Mode string `json:"mode,omitempty"`
	// Answer is an elicitation's action, AskResult for another result,
	// "error CODE", or AskNoAnswer.
	Answer string `json:"answer"`
	// Content is what an accepted elicitation or a sampling result said,
	// in compact JSON, cut to maxContent characters; Roots the number of
	// roots a roots/list result gave (their paths are the run's own).
	Content string `json:"content,omitempty"`
	Roots   *int   `json:"roots,omitempty"`
	// MS is the time from the request to its answer.
	MS *float64 `json:"ms,omitempty"`
	// Model is the first model request whose body holds the request's
	// text (a sampling request the client sent its model), 0 for none.
	Model int `json:"model,omitempty"`
	// Via is ViaInputRequired for an ask the server made in a call's
	// result (the 2026-07-28 protocol), whose answer the client's retry
	// of the call carried; "" for a request of its own.
	Via string `json:"via,omitempty"`
}

// ViaInputRequired is AskFact.Via of an ask made in a tools/call result
// of resultType input_required (inputRequests), answered in the retried
// call's inputResponses.
const ViaInputRequired = "input_required"

// A Notice is one kind of notification the server sent and whether its
// text reached the model.
type Notice struct {
	Method string `json:"method"`
	Count  int    `json:"count"`
	// Model is the first model request whose body holds a notice's text,
	// 0 for none.
	Model int `json:"model,omitempty"`
}

// A ListFact says what a client did after the server announced a change
// of its tools (notifications/tools/list_changed).
type ListFact struct {
	// Relisted says the client asked the same server process for the
	// tools again after the notification; MS how long after. Restarted
	// says it started the server anew first (a client that starts a
	// server for each call): the new process lists what it lists.
	Relisted  bool     `json:"relisted"`
	MS        *float64 `json:"ms,omitempty"`
	Restarted bool     `json:"restarted,omitempty"`
	// During is the tool whose call was under way when the server sent
	// the notification, and Result the model request that carried that
	// call's result (0 for none).
	During string `json:"during,omitempty"`
	Result int    `json:"result,omitempty"`
	// Added are the tools of the last tools/list reply that the first
	// did not list; Offered, the first model request that defines the
	// first of them (0 for none): the model has it from Result on when
	// the two are one.
	Added   []string `json:"added,omitempty"`
	Offered int      `json:"offered,omitempty"`
}

// maxContent bounds ProtocolFacts' texts of a client's answers.
const maxContent = 200

// Protocol reads what a client did with the server's requests and
// notifications in log, and where their texts went in reqs; nil when the
// server asked and announced nothing.
func Protocol(reqs []Request, log []lab.Entry, server string) *ProtocolFacts {
	p := &ProtocolFacts{}
	type open struct {
		at   time.Time
		fact int
		id   string
	}
	asks := map[string]open{}
	notices := map[string]int{}
	var metaDeclared []string   // the capabilities of the first request's _meta
	inputs := map[string]open{} // the asks of input_required results, by key
	var calls []open            // the tools/call requests under way, oldest first
	callTool := map[string]string{}
	var changed, lastPoll, updated time.Time
	resource := func() *ResourceFact {
		if p.Resource == nil {
			p.Resource = &ResourceFact{}
		}
		return p.Resource
	}
	var firstList, lastList []listedTool
	for _, e := range log {
		id := string(bytes.TrimSpace(e.ID))
		if e.Dir == lab.Recv && e.Kind == lab.KindRequest && metaDeclared == nil && len(e.Meta) > 0 {
			// The 2026-07-28 protocol: the capabilities in each request's
			// _meta, no initialize. Any request may carry them: the
			// request is read on below for what else it is.
			var meta struct {
				Capabilities json.RawMessage `json:"io.modelcontextprotocol/clientCapabilities"`
			}
			if json.Unmarshal(e.Meta, &meta) == nil && len(meta.Capabilities) > 0 {
				metaDeclared = declared(meta.Capabilities)
			}
		}
		switch {
		case e.Dir == lab.Recv && e.Kind == lab.KindRequest && e.Method == lab.Legacy.Method() && p.Declared == nil:
			var req struct {
				Params struct {
					Capabilities json.RawMessage `json:"capabilities"`
				} `json:"params"`
			}
			if json.Unmarshal(e.Body, &req) == nil {
				p.Declared = declared(req.Params.Capabilities)
			}
		case e.Dir == lab.Recv && e.Kind == lab.KindRequest && e.Method == "logging/setLevel":
			var req struct {
				Params struct{ Level string } `json:"params"`
			}
			json.Unmarshal(e.Body, &req)
			p.LogLevel = cmp.Or(req.Params.Level, "set")
		case e.Dir == lab.Send && e.Kind == lab.KindRequest && slices.Contains(labvocab.AskMethods, e.Method):
			var req struct {
				Params json.RawMessage `json:"params"`
			}
			json.Unmarshal(e.Body, &req)
			f := AskFact{Method: e.Method, Answer: AskNoAnswer, Model: firstHolding(reqs, askTexts(req.Params))}
			if e.Method == "elicitation/create" {
				var req struct {
					Params struct{ Mode string } `json:"params"`
				}
				json.Unmarshal(e.Body, &req)
				f.Mode = cmp.Or(req.Params.Mode, "form")
			}
			asks[id] = open{at: e.Time, fact: len(p.Asks)}
			p.Asks = append(p.Asks, f)
		case e.Dir == lab.Recv && (e.Kind == lab.KindResponse || e.Kind == lab.KindError):
			o, ok := asks[id]
			if !ok {
				continue
			}
			delete(asks, id)
			p.answered(o.fact, e.Time.Sub(o.at), e)
		case e.Dir == lab.Send && e.Kind == lab.KindDropped && slices.Contains(labvocab.NoticeMethods, e.Method):
			if k, ok := notices[e.Method]; ok { // the log's count of those past lab.MaxNotices
				p.Notices[k].Count += e.Count
			}
		case e.Dir == lab.Send && e.Kind == lab.KindNotification && slices.Contains(labvocab.NoticeMethods, e.Method):
			k, ok := notices[e.Method]
			if !ok {
				k = len(p.Notices)
				notices[e.Method] = k
				p.Notices = append(p.Notices, Notice{Method: e.Method})
			}
			n := &p.Notices[k]
			n.Count++
			if m := firstHolding(reqs, noticeTexts(e.Body)); m != 0 && (n.Model == 0 || m < n.Model) {
				n.Model = m
			}
		case e.Method == "tools/call" && e.Dir == lab.Recv && e.Kind == lab.KindRequest:
			var req struct {
				Params struct {
					Name           string                     `json:"name"`
					InputResponses map[string]json.RawMessage `json:"inputResponses"`
					Task           json.RawMessage            `json:"task"`
				} `json:"params"`
			}
			json.Unmarshal(e.Body, &req)
			if t := bytes.TrimSpace(req.Params.Task); len(t) > 0 && string(t) != "null" && !slices.Contains(p.Tasked, req.Params.Name) {
				p.Tasked = append(p.Tasked, req.Params.Name)
			}
			calls = append(calls, open{id: id})
			callTool[id] = req.Params.Name
			for _, k := range slices.Sorted(maps.Keys(req.Params.InputResponses)) {
				o, ok := inputs[k]
				if !ok {
					continue
				}
				delete(inputs, k)
				body, _ := json.Marshal(map[string]json.RawMessage{"result": req.Params.InputResponses[k]})
				p.answered(o.fact, e.Time.Sub(o.at), lab.Entry{Kind: lab.KindResponse, Body: body})
			}
		case e.Method == "tasks/get" && e.Dir == lab.Recv && e.Kind == lab.KindRequest && p.Task != nil:
			if !lastPoll.IsZero() {
				p.Task.GapsMS = append(p.Task.GapsMS, float64(e.Time.Sub(lastPoll).Microseconds())/1000)
			}
			p.Task.Polls, lastPoll = p.Task.Polls+1, e.Time
		case e.Method == "tasks/get" && e.Dir == lab.Send && e.Kind == lab.KindResponse && p.Task != nil && !p.Task.Completed:
			var res struct {
				Result struct {
					Status string          `json:"status"`
					Result json.RawMessage `json:"result"`
				} `json:"result"`
			}
			if json.Unmarshal(e.Body, &res) == nil && res.Result.Status == "completed" {
				p.Task.Completed = true
				p.Task.Model = firstHolding(reqs, resultTexts(res.Result.Result))
			}
		case e.Method == "tools/call" && e.Dir == lab.Send:
			if bytes.Contains(e.Body, []byte(`"resultType":"task"`)) && p.Task == nil {
				p.Task = &TaskFact{}
			}
			calls = slices.DeleteFunc(calls, func(o open) bool { return o.id == id })
			first := len(p.Asks)
			for i, k := range p.inputRequired(e, reqs) {
				inputs[k] = open{at: e.Time, fact: first + i}
			}
		case e.Dir == lab.Recv && e.Kind == lab.KindRequest && e.Method == "resources/subscribe":
			resource().Subscribed = true
		case e.Dir == lab.Send && e.Kind == lab.KindNotification && e.Method == "notifications/resources/updated":
			r := resource()
			r.Subscribed, r.Updated = true, true
			if updated.IsZero() {
				updated = e.Time
			}
		case e.Method == "resources/read" && !updated.IsZero() && e.Dir == lab.Recv && e.Kind == lab.KindRequest:
			p.Resource.Reread = true
		case e.Method == "resources/read" && !updated.IsZero() && e.Dir == lab.Send && e.Kind == lab.KindResponse:
			if m := firstHolding(reqs, readTexts(e.Body)); m != 0 && (p.Resource.Model == 0 || m < p.Resource.Model) {
				p.Resource.Model = m
			}
		case e.Dir == lab.Send && e.Kind == lab.KindNotification && e.Method == "notifications/tools/list_changed" && changed.IsZero():
			changed = e.Time
			p.Changed = &ListFact{}
			if len(calls) > 0 { // of several at once, the one that began last
				p.Changed.During = callTool[calls[len(calls)-1].id]
			}
		case e.Kind == lab.KindStart && !changed.IsZero() && !p.Changed.Relisted:
			p.Changed.Restarted = true
		case e.Dir == lab.Recv && e.Kind == lab.KindRequest && e.Method == "tools/list" && !changed.IsZero() && !p.Changed.Relisted && !p.Changed.Restarted:
			ms := float64(e.Time.Sub(changed).Microseconds()) / 1000
			p.Changed.Relisted, p.Changed.MS = true, &ms
		case e.Dir == lab.Send && e.Kind == lab.KindResponse && e.Method == "tools/list" && len(e.Body) > 0:
			lastList = listedIn(e.Body)
			if firstList == nil {
				firstList = lastList
			}
		}
	}
	if p.Declared == nil && metaDeclared != nil { // no initialize: the 2026-07-28 protocol
		p.Declared, p.Modern = metaDeclared, true
	}
	if p.Changed != nil {
		p.Changed.Added, p.Changed.Offered = added(reqs, firstList, lastList, server)
		for _, c := range Calls(reqs, log) {
			if c.Tool == p.Changed.During && p.Changed.During != "" {
				p.Changed.Result = c.Following
			}
		}
	}
	if len(p.Asks) == 0 && len(p.Notices) == 0 && p.Changed == nil && p.Task == nil && p.Resource == nil {
		return nil
	}
	return p
}

// answered records e, the client's answer after d, as the answer of the
// ask p.Asks[k].
func (p *ProtocolFacts) answered(k int, d time.Duration, e lab.Entry) {
	f := &p.Asks[k]
	ms := float64(d.Microseconds()) / 1000
	f.MS = &ms
	f.Answer, f.Content, f.Roots = answer(f.Method, e)
}

// inputRequired adds to p the asks of e, a tools/call result, when it is
// of resultType input_required, and returns their keys in the order
// added.
func (p *ProtocolFacts) inputRequired(e lab.Entry, reqs []Request) []string {
	var reply struct {
		Result struct {
			ResultType    string `json:"resultType"`
			InputRequests map[string]struct {
				Method string          `json:"method"`
				Params json.RawMessage `json:"params"`
			} `json:"inputRequests"`
		} `json:"result"`
	}
	if json.Unmarshal(e.Body, &reply) != nil || reply.Result.ResultType != ViaInputRequired {
		return nil
	}
	var keys []string
	for _, k := range slices.Sorted(maps.Keys(reply.Result.InputRequests)) {
		ir := reply.Result.InputRequests[k]
		f := AskFact{Method: ir.Method, Answer: AskNoAnswer, Via: ViaInputRequired, Model: firstHolding(reqs, askTexts(ir.Params))}
		if ir.Method == "elicitation/create" {
			var params struct{ Mode string }
			json.Unmarshal(ir.Params, &params)
			f.Mode = cmp.Or(params.Mode, "form")
		}
		p.Asks = append(p.Asks, f)
		keys = append(keys, k)
	}
	return keys
}

// declared lists a client's capabilities object as dotted paths to its
// leaves (an empty object is a leaf): "sampling", "elicitation.form",
// "roots.listChanged"; nil when it is not an object.
func declared(capabilities json.RawMessage) []string {
	var caps map[string]any
	if json.Unmarshal(capabilities, &caps) != nil {
		return nil
	}
	out := []string{}
	var walk func(prefix string, m map[string]any)
	walk = func(prefix string, m map[string]any) {
		for k, v := range m {
			path := prefix + k
			if sub, ok := v.(map[string]any); ok && len(sub) > 0 {
				walk(path+".", sub)
				continue
			}
			if b, ok := v.(bool); ok && !b {
				continue
			}
			out = append(out, path)
		}
	}
	walk("", caps)
	sort.Strings(out)
	return out
}

// answer reads a client's answer to a request of method.
func answer(method string, e lab.Entry) (what, content string, roots *int) {
	if e.Kind == lab.KindError {
		if e.Error != nil {
			return fmt.Sprintf("error %d", *e.Error), "", nil
		}
		var wire struct {
			Error struct{ Code int } `json:"error"`
		}
		json.Unmarshal(e.Body, &wire)
		return fmt.Sprintf("error %d", wire.Error.Code), "", nil
	}
	var wire struct {
		Result json.RawMessage `json:"result"`
	}
	if json.Unmarshal(e.Body, &wire) != nil || len(wire.Result) == 0 {
		return AskResult, "", nil // an answer the log did not keep
	}
	switch method {
	case "elicitation/create":
		var r struct {
			Action  string          `json:"action"`
			Content json.RawMessage `json:"content"`
		}
		if json.Unmarshal(wire.Result, &r) != nil || !slices.Contains([]string{"accept", "decline", "cancel"}, r.Action) {
			return AskMalformed, cut(string(wire.Result)), nil
		}
		if len(r.Content) > 0 && string(r.Content) != "null" {
			content = cut(compact(r.Content))
		}
		return r.Action, content, nil
	case "sampling/createMessage":
		var r struct {
			Content map[string]any `json:"content"`
		}
		if json.Unmarshal(wire.Result, &r) != nil || r.Content == nil {
			return AskMalformed, cut(string(wire.Result)), nil
		}
		return AskResult, cut(compact(r.Content)), nil
	case "roots/list":
		var r struct {
			Roots []json.RawMessage `json:"roots"`
		}
		if json.Unmarshal(wire.Result, &r) != nil || r.Roots == nil {
			return AskMalformed, cut(string(wire.Result)), nil
		}
		n := len(r.Roots)
		return AskResult, "", &n
	}
	return AskResult, "", nil
}

func cut(s string) string { return unit.CodePoint.Clip(s, maxContent) }

// askTexts are the texts of the params of a request the server sent: an
// elicitation's message, a sampling request's messages and system prompt.
func askTexts(params json.RawMessage) []string {
	var req struct {
		Message      string `json:"message"`
		SystemPrompt string `json:"systemPrompt"`
		Messages     []struct {
			Content struct {
				Text string `json:"text"`
			} `json:"content"`
		} `json:"messages"`
	}
	json.Unmarshal(params, &req)
	out := []string{req.Message, req.SystemPrompt}
	for _, m := range req.Messages {
		out = append(out, m.Content.Text)
	}
	return out
}

// noticeTexts are the texts of a notification: a log message's data, a
// progress notification's message.
func noticeTexts(body json.RawMessage) []string {
	var n struct {
		Params struct {
			Data    json.RawMessage `json:"data"`
			Message string          `json:"message"`
		} `json:"params"`
	}
	json.Unmarshal(body, &n)
	out := []string{n.Params.Message}
	var s string
	if json.Unmarshal(n.Params.Data, &s) == nil {
		out = append(out, s)
	}
	return out
}

// resultTexts are the texts of a tool result's content.
func resultTexts(result json.RawMessage) []string {
	var r struct {
		Content []struct {
			Text string `json:"text"`
		} `json:"content"`
	}
	json.Unmarshal(result, &r)
	var out []string
	for _, c := range r.Content {
		out = append(out, c.Text)
	}
	return out
}

// readTexts are the texts of a resources/read reply.
func readTexts(body json.RawMessage) []string {
	var r struct {
		Result struct {
			Contents []struct {
				Text string `json:"text"`
			} `json:"contents"`
		} `json:"result"`
	}
	json.Unmarshal(body, &r)
	var out []string
	for _, c := range r.Result.Contents {
		if c.Text != "" {
			out = append(out, c.Text)
		}
	}
	return out
}

// firstHolding is the Seq of the first of reqs whose body holds one of
// texts (as a JSON string holds it), 0 for none; a text shorter than
// minNeedle would be found by chance and is not looked for.
func firstHolding(reqs []Request, texts []string) int {
	var needles [][]byte
	for _, t := range texts {
		if len(t) < minNeedle {
			continue
		}
		b, _ := json.Marshal(t)
		needles = append(needles, bytes.Trim(b, `"`))
	}
	for _, r := range reqs {
		for _, n := range needles {
			if bytes.Contains(r.Body, n) {
				return r.Seq
			}
		}
	}
	return 0
}

// listedIn reads the tools of a tools/list reply.
func listedIn(body json.RawMessage) []listedTool {
	var reply struct {
		Result struct {
			Tools []listedTool `json:"tools"`
		} `json:"result"`
	}
	json.Unmarshal(body, &reply)
	return reply.Result.Tools
}

// added names the tools of last that first lacks, and the first model
// request that defines the first of them.
func added(reqs []Request, first, last []listedTool, server string) (names []string, offered int) {
	var tools []listedTool
	for _, t := range last {
		if !slices.ContainsFunc(first, func(f listedTool) bool { return f.Name == t.Name }) {
			tools = append(tools, t)
			names = append(names, t.Name)
		}
	}
	if len(tools) == 0 {
		return nil, 0
	}
	n := fakeapi.Names{Server: server}
	for _, t := range last {
		n.Tools = append(n.Tools, t.Name)
	}
	for _, r := range reqs {
		if _, ok := n.Find(r.Context, tools[0].Name, fakeapi.DescriptionKey(tools[0].Description)); ok {
			return names, r.Seq
		}
	}
	return names, 0
}

// Summary is what was asked and the answer: "elicitation form: cancel",
// "sampling: error -32601", "roots/list: result".
func (a AskFact) Summary() string {
	what := a.Method
	switch a.Method {
	case "elicitation/create":
		what = "elicitation " + a.Mode
	case "sampling/createMessage":
		what = "sampling"
	}
	return what + ": " + a.Answer
}
