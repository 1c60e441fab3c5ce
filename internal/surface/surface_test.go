package surface

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/instrlab/instrlab/internal/fakeapi"
	"github.com/instrlab/instrlab/internal/jsonl"
	"github.com/instrlab/instrlab/internal/labvocab"
	"github.com/instrlab/instrlab/lab"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// load reads a fixture: a trimmed run (testdata/trim.py), with edit applied
// to the requests' text first.
func load(t *testing.T, dir string, edit func(string) string) ([]Request, []lab.Entry) {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(dir, "requests.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if edit != nil {
		raw = []byte(edit(string(raw)))
	}
	reqs, warns := jsonl.Decode[fakeapi.Request](bytes.NewReader(raw), "requests.jsonl")
	logRaw, err := os.ReadFile(filepath.Join(dir, "lab.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	log, w2 := jsonl.Decode[lab.Entry](bytes.NewReader(logRaw), "lab.jsonl")
	rs, w3 := Contexts(reqs)
	if w := append(append(warns, w2...), w3...); len(w) > 0 {
		t.Fatalf("fixture warnings: %v", w)
	}
	return rs, log
}

// fixtureServer is the name the fixture's client gave its server: its
// file server, else lab.
func fixtureServer(t *testing.T, dir string) string {
	b, err := os.ReadFile(filepath.Join(dir, "server"))
	if errors.Is(err, fs.ErrNotExist) {
		return "lab"
	} else if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(b))
}

// TestFixtures: the facts of each trimmed real run are its golden file
// (go test ./internal/surface -update rewrites them).
func TestFixtures(t *testing.T) {
	dirs, _ := filepath.Glob(filepath.Join("testdata", "*", "requests.jsonl"))
	if len(dirs) == 0 {
		t.Fatal("no fixtures")
	}
	for _, d := range dirs {
		dir := filepath.Dir(d)
		t.Run(filepath.Base(dir), func(t *testing.T) {
			reqs, log := load(t, dir, nil)
			server := fixtureServer(t, dir)
			facts := struct {
				Calls    []CallFacts    `json:"calls"`
				Tools    []ToolDef      `json:"tools"`
				Texts    []TextFact     `json:"texts,omitempty"`
				Unasked  []string       `json:"unasked,omitempty"`
				OwnCalls []string       `json:"own_calls,omitempty"`
				Reads    []ReadFact     `json:"reads,omitempty"`
				Protocol *ProtocolFacts `json:"protocol,omitempty"`
			}{Calls(reqs, log), Tools(reqs, log, server), Texts(reqs, log, Tools(reqs, log, server)), Unasked(log), OwnCalls(reqs, log), Reads(reqs, log), Protocol(reqs, log, server)}
			got, _ := json.MarshalIndent(facts, "", "  ")
			golden := filepath.Join(dir, "facts.golden.json")
			if *update {
				os.WriteFile(golden, append(got, '\n'), 0o644)
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(strings.TrimSpace(string(want)), string(got)); diff != "" {
				t.Errorf("facts mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// partFates maps "tool part" to whether it reached the model, and in what
// form, for the calls of a fixture.
func partFates(calls []CallFacts) map[string]string {
	out := map[string]string{}
	for _, c := range calls {
		for _, p := range c.Parts {
			v := "missing"
			if p.Reached {
				v = p.Form
			}
			out[c.Tool+" "+p.Part] = v
		}
	}
	return out
}

// TestClaudeCodeResults: what Claude Code 2.1.328 gave the model of each
// result part (run of 2026-12-02, testdata/claude-code-2.1.328-results),
// and a copy with one part taken out of the following request reports
// that part missing and nothing else changed.
func TestClaudeCodeResults(t *testing.T) {
	dir := filepath.Join("testdata", "claude-code-2.1.328-results")
	reqs, log := load(t, dir, nil)
	calls := Calls(reqs, log)
	want := map[string]string{
		"result_text content[0] text":          "text",
		"result_structured structuredContent":  "json",
		"result_both content[0] text":          "missing",
		"result_both structuredContent":        "json",
		"result_error content[0] text":         "text",
		"result_image content[0] image":        "image",
		"result_link content[0] resource_link": "text",
		"result_resource content[0] resource":  "text",
		"result_meta content[0] text":          "text",
		"result_meta _meta":                    "missing",
		"result_audience content[0] text":      "text",
		"result_audience content[1] text":      "text",
		"result_outschema content[0] text":     "missing",
		"result_outschema structuredContent":   "json",
	}
	if diff := cmp.Diff(want, partFates(calls)); diff != "" {
		t.Errorf("parts mismatch (-want +got):\n%s", diff)
	}
	for _, c := range calls {
		if !c.Reached || c.Following == 0 {
			t.Errorf("%s: reached %v, following %d", c.Tool, c.Reached, c.Following)
		}
		if c.Flagged != (c.Tool == "result_error") {
			t.Errorf("%s: flagged %v", c.Tool, c.Flagged)
		}
	}
	text := "result_text content text codeword: " + lab.SurfaceCodeword("", "result_text", "content text") + "."
	removed, log2 := load(t, dir, func(s string) string {
		if !strings.Contains(s, text) {
			t.Fatalf("the fixture lacks %q", text)
		}
		return strings.ReplaceAll(s, text, "something else")
	})
	want["result_text content[0] text"] = "missing"
	if diff := cmp.Diff(want, partFates(Calls(removed, log2))); diff != "" {
		t.Errorf("with result_text's text removed, parts mismatch (-want +got):\n%s", diff)
	}
}

// TestOtherClientsResults: what each other client gave the model of each
// result part (runs of 2026-12-02 with instrlab run -matrix surface -row
// surface-results, testdata/CLIENT-VERSION-results): every part reached in
// the client's form but those missing (and those in another form); a copy
// with result_text's text taken out of the following request reports that
// part missing and nothing else changed.
func TestOtherClientsResults(t *testing.T) {
	all := []string{"result_text content[0] text", "result_structured structuredContent", "result_both content[0] text",
		"result_both structuredContent", "result_error content[0] text", "result_image content[0] image",
		"result_link content[0] resource_link", "result_resource content[0] resource", "result_meta content[0] text",
		"result_meta _meta", "result_audience content[0] text", "result_audience content[1] text",
		"result_outschema content[0] text", "result_outschema structuredContent"}
	for _, tc := range []struct {
		fixture string
		form    string            // of every part reached, unless in other
		other   map[string]string // part: its form
		missing []string
	}{
		{fixture: "cline-3.0.65-results", form: FormJSON},
		{fixture: "continue-1.5.47-results", form: FormJSON,
			missing: []string{"result_structured structuredContent", "result_both structuredContent", "result_meta _meta", "result_outschema structuredContent"}},
		{fixture: "copilot-1.0.102-results", form: FormText, other: map[string]string{"result_structured structuredContent": FormJSON},
			missing: []string{"result_image content[0] image", "result_link content[0] resource_link", "result_meta _meta"}},
		{fixture: "gemini-0.61.0-results", form: FormJSON, other: map[string]string{"result_image content[0] image": FormImage},
			missing: []string{"result_structured structuredContent", "result_both structuredContent", "result_meta _meta", "result_outschema structuredContent"}},
		{fixture: "codex-0.171.0-results", form: FormText,
			other:   map[string]string{"result_image content[0] image": FormImage, "result_link content[0] resource_link": FormJSON, "result_resource content[0] resource": FormJSON},
			missing: []string{"result_both content[0] text", "result_meta _meta", "result_outschema content[0] text"}},
		{fixture: "droid-0.225.2-results", form: FormText,
			missing: []string{"result_structured structuredContent", "result_both structuredContent", "result_image content[0] image",
				"result_link content[0] resource_link", "result_meta _meta", "result_outschema structuredContent"}},
		{fixture: "qwen-0.24.4-results", form: FormText, other: map[string]string{"result_structured structuredContent": FormJSON},
			missing: []string{"result_image content[0] image", "result_meta _meta"}},
		// The frameworks' hosts (2026-12-06): the AI SDK and the Agents
		// SDK give the model content, never structuredContent; the Agents
		// SDK with useStructuredContent (its arm) gives structuredContent
		// in place of content where a result has one.
		{fixture: "ai-sdk-7.0.185-results", form: FormText,
			other:   map[string]string{"result_image content[0] image": FormImage, "result_link content[0] resource_link": FormJSON, "result_resource content[0] resource": FormJSON},
			missing: []string{"result_structured structuredContent", "result_both structuredContent", "result_meta _meta", "result_outschema structuredContent"}},
		{fixture: "openai-agents-0.20.0-results", form: FormText,
			other:   map[string]string{"result_image content[0] image": FormImage, "result_link content[0] resource_link": FormJSON, "result_resource content[0] resource": FormJSON},
			missing: []string{"result_structured structuredContent", "result_both structuredContent", "result_meta _meta", "result_outschema structuredContent"}},
		{fixture: "openai-agents-0.20.0-structured-content-results", form: FormText,
			other: map[string]string{"result_image content[0] image": FormImage, "result_link content[0] resource_link": FormJSON, "result_resource content[0] resource": FormJSON,
				"result_structured structuredContent": FormJSON, "result_both structuredContent": FormJSON, "result_outschema structuredContent": FormJSON},
			missing: []string{"result_both content[0] text", "result_meta _meta", "result_outschema content[0] text"}},
		// Mastra 2.0.0's host: the model gets the whole result as JSON
		// (its _meta too), an image as an image, an error's text as
		// text; where a result has structuredContent, that in place of
		// the content; where the tool declares an output schema, the
		// content text alone.
		{fixture: "mastra-2.0.0-results", form: FormJSON,
			other:   map[string]string{"result_image content[0] image": FormImage, "result_error content[0] text": FormText, "result_outschema content[0] text": FormText},
			missing: []string{"result_both content[0] text", "result_outschema structuredContent"}},
		// ADK for TypeScript 2.0.0's host (Gemini): the whole result as
		// JSON, a functionResponse's response.
		{fixture: "adk-2.0.0-results", form: FormJSON},
		{fixture: "opencode-1.18.33-results", form: FormText, other: map[string]string{"result_structured structuredContent": FormJSON},
			missing: []string{"result_both structuredContent", "result_image content[0] image", "result_link content[0] resource_link",
				"result_meta _meta", "result_outschema structuredContent"}},
	} {
		t.Run(tc.fixture, func(t *testing.T) {
			want := map[string]string{}
			for _, p := range all {
				want[p] = tc.form
			}
			for p, f := range tc.other {
				want[p] = f
			}
			for _, p := range tc.missing {
				want[p] = "missing"
			}
			dir := filepath.Join("testdata", tc.fixture)
			reqs, log := load(t, dir, nil)
			calls := Calls(reqs, log)
			if diff := cmp.Diff(want, partFates(calls)); diff != "" {
				t.Errorf("parts mismatch (-want +got):\n%s", diff)
			}
			for _, c := range calls {
				if !c.Reached || c.Following == 0 {
					t.Errorf("%s: reached %v, following %d", c.Tool, c.Reached, c.Following)
				}
			}
			text := "result_text content text codeword: " + lab.SurfaceCodeword("", "result_text", "content text") + "."
			removed, log2 := load(t, dir, func(s string) string {
				if !strings.Contains(s, text) {
					t.Fatalf("the fixture lacks %q", text)
				}
				return strings.ReplaceAll(s, text, "something else")
			})
			want["result_text content[0] text"] = "missing"
			if diff := cmp.Diff(want, partFates(Calls(removed, log2))); diff != "" {
				t.Errorf("with result_text's text removed, parts mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestCallsThroughALoader: Codex 0.171.0's calls name the namespace the
// tool was offered in (mcp__lab), Qwen Code 0.24.4's go through its
// tool_call under the client's name of the tool, and the definitions Qwen
// gave only in tool_search's result are read from there.
func TestCallsThroughALoader(t *testing.T) {
	reqs, log := load(t, filepath.Join("testdata", "codex-0.171.0-results"), nil)
	for _, c := range Calls(reqs, log) {
		if c.Namespace != "mcp__lab" || c.Name != c.Tool || !c.Reached {
			t.Errorf("codex call %+v, want %s in namespace mcp__lab, reached", c, c.Tool)
		}
	}
	reqs, log = load(t, filepath.Join("testdata", "qwen-0.24.4-results"), nil)
	for _, c := range Calls(reqs, log) {
		if c.Name != "tool_call" || c.Deferred != "mcp__lab__"+c.Tool || !c.Reached {
			t.Errorf("qwen call %+v, want tool_call of mcp__lab__%s, reached", c, c.Tool)
		}
	}
	for _, d := range Tools(reqs, log, "lab") {
		if !strings.HasPrefix(d.Tool, "result_") {
			continue
		}
		if d.Via != ViaLoaded || d.Name != "mcp__lab__"+d.Tool || len(d.Keywords) == 0 {
			t.Errorf("qwen tool %+v, want its definition read from tool_search's result", d)
		}
	}
}

// TestSuffixDecoded: what followed a part cut inside serialized JSON
// (Gemini CLI's functionResponse output) reads as the client wrote it,
// its escapes decoded, even when the 80 bytes looked at end inside an
// escape; a part found as it is keeps its suffix as it is.
func TestSuffixDecoded(t *testing.T) {
	raw := `\n\n... [1 characters omitted] ...\n\number or asks about the stock`
	if got, want := suffix(raw, true), "\n\n... [1 characters omitted] ...\n\number or asks"[:40]; got != want {
		t.Errorf("escaped: %q, want %q", got, want)
	}
	if got := suffix(raw, false); got != raw[:40] {
		t.Errorf("as it is: %q, want %q", got, raw[:40])
	}
	cut := strings.Repeat("a", 76) + `\u00e9xyz`
	if got := suffix(cut, true); got != strings.Repeat("a", 40) {
		t.Errorf("an escape cut at the end: %q", got)
	}
}

// TestProtocolClaudeCode: what Claude Code 2.1.332 did with what the
// lab's protocol group asked and announced (run of 2026-12-06,
// testdata/claude-code-2.1.332-protocol), and each effect taken out of
// the fixture reads as absent.
func TestProtocolClaudeCode(t *testing.T) {
	dir := filepath.Join("testdata", "claude-code-2.1.332-protocol")
	reqs, log := load(t, dir, nil)
	p := Protocol(reqs, log, "lab")
	if p == nil {
		t.Fatal("no protocol facts")
	}
	var answers []string
	for _, a := range p.Asks {
		answers = append(answers, a.Summary())
	}
	want := []string{"elicitation form: cancel", "elicitation url: cancel", "sampling: error -32601", "roots/list: result"}
	if !cmp.Equal(want, answers) {
		t.Errorf("answers %q, want %q", answers, want)
	}
	if c := p.Changed; c == nil || !c.Relisted || c.During != "protocol_list_changed" || c.Offered == 0 || c.Result == 0 || !cmp.Equal(c.Added, []string{labvocab.ProtocolAddedTool}) {
		t.Errorf("list_changed: %+v", c)
	}
	for _, n := range p.Notices {
		if n.Model != 0 {
			t.Errorf("%s reached request %d; the run shows it never did", n.Method, n.Model)
		}
	}

	// The log without the client's answers, its tools/list after the
	// notification, its initialize and its requests' _meta.
	var cut []lab.Entry
	relisted := false
	for _, e := range log {
		switch {
		case e.Dir == lab.Recv && (e.Kind == lab.KindResponse || e.Kind == lab.KindError):
			continue
		case e.Method == "notifications/tools/list_changed":
			relisted = true
		case relisted && e.Method == "tools/list":
			continue
		case e.Method == "initialize":
			continue
		}
		e.Meta = nil // nor capabilities in a request's _meta (the 2026-07-28 protocol's)
		cut = append(cut, e)
	}
	q := Protocol(reqs, cut, "lab")
	for _, a := range q.Asks {
		if a.Answer != AskNoAnswer || a.MS != nil {
			t.Errorf("%s without its answer: %+v", a.Summary(), a)
		}
	}
	if q.Changed.Relisted || q.Changed.Added != nil || q.Changed.Offered != 0 || q.Declared != nil {
		t.Errorf("without the tools/list after the notification and initialize: %+v, declared %v", q.Changed, q.Declared)
	}

	// Requests whose _meta holds no capabilities (a progress token) are
	// still read for what they are: the call under way is found.
	var plainMeta []lab.Entry
	for _, e := range log {
		if e.Dir == lab.Recv && e.Kind == lab.KindRequest {
			e.Meta = json.RawMessage(`{"progressToken":1}`)
		}
		plainMeta = append(plainMeta, e)
	}
	if c := Protocol(reqs, plainMeta, "lab").Changed; c == nil || c.During != "protocol_list_changed" || c.Result == 0 {
		t.Errorf("requests with a _meta of no capabilities: %+v", c)
	}

	// A server started anew after the notification: its tools/list is
	// not the client listing again.
	var restarted []lab.Entry
	for _, e := range log {
		restarted = append(restarted, e)
		if e.Method == "notifications/tools/list_changed" {
			restarted = append(restarted, lab.Entry{Dir: lab.ServerDir, Kind: lab.KindStart})
		}
	}
	if c := Protocol(reqs, restarted, "lab").Changed; c.Relisted || !c.Restarted {
		t.Errorf("a server started anew after the notification: %+v", c)
	}

	// A model request that holds the log message's text: it reached.
	var message string
	for _, e := range log {
		if e.Method == "notifications/message" {
			message = noticeTexts(e.Body)[1]
		}
	}
	reqs, log = load(t, dir, func(s string) string {
		return strings.Replace(s, "Call the lab's tools", message, 1)
	})
	if n := Protocol(reqs, log, "lab").Notices[0]; n.Method != "notifications/message" || n.Model == 0 {
		t.Errorf("a request holding the log message: %+v", n)
	}

	// A log of no asks nor announcements: no facts.
	var plain []lab.Entry
	for _, e := range log {
		if !slices.Contains(labvocab.AskMethods, e.Method) && !slices.Contains(labvocab.NoticeMethods, e.Method) && e.Method != "notifications/tools/list_changed" {
			plain = append(plain, e)
		}
	}
	if got := Protocol(reqs, plain, "lab"); got != nil {
		t.Errorf("a log without asks: %+v", got)
	}
}

// TestProtocolBadAnswers: answers not of the request's shape are
// malformed, with what came; an error is its code; a request never
// answered has none; notifications the log counted past lab.MaxNotices
// count.
func TestProtocolBadAnswers(t *testing.T) {
	at := time.Date(2026, 12, 6, 10, 0, 0, 0, time.UTC)
	ask := func(id, method, params string) lab.Entry {
		return lab.Entry{Time: at, Dir: lab.Send, Kind: lab.KindRequest, Method: method, ID: json.RawMessage(id),
			Body: json.RawMessage(`{"jsonrpc":"2.0","id":` + id + `,"method":"` + method + `","params":` + params + `}`)}
	}
	answer := func(id, result string) lab.Entry {
		return lab.Entry{Time: at.Add(time.Millisecond), Dir: lab.Recv, Kind: lab.KindResponse, ID: json.RawMessage(id),
			Body: json.RawMessage(`{"jsonrpc":"2.0","id":` + id + `,"result":` + result + `}`)}
	}
	code := -32603
	log := []lab.Entry{
		ask("1", "elicitation/create", `{"mode":"form","message":"m"}`), answer("1", `{"action":7}`),
		ask("2", "sampling/createMessage", `{"messages":[]}`), answer("2", `"text"`),
		ask("3", "roots/list", `{}`), answer("3", `{"roots":5}`),
		ask("4", "roots/list", `{}`), {Time: at, Dir: lab.Recv, Kind: lab.KindError, ID: json.RawMessage("4"), Error: &code},
		ask("5", "elicitation/create", `{"mode":"url","message":"m","url":"http://127.0.0.1:9/"}`),
		{Time: at, Dir: lab.Send, Kind: lab.KindNotification, Method: "notifications/message", Body: json.RawMessage(`{"params":{"data":"a log message of some length"}}`)},
		{Time: at, Dir: lab.Send, Kind: lab.KindDropped, Method: "notifications/message", Count: 41},
	}
	p := Protocol(nil, log, "lab")
	var got []string
	for _, a := range p.Asks {
		got = append(got, a.Summary()+" "+a.Content)
	}
	want := []string{"elicitation form: malformed result {\"action\":7}", "sampling: malformed result \"text\"",
		"roots/list: malformed result {\"roots\":5}", "roots/list: error -32603 ", "elicitation url: no answer "}
	if !slices.Equal(got, want) {
		t.Errorf("answers %q, want %q", got, want)
	}
	if len(p.Notices) != 1 || p.Notices[0].Count != 42 {
		t.Errorf("notices %+v, want 42 log messages", p.Notices)
	}
}

// TestProtocolClaudeCodeModern: Claude Code 2.1.332 speaks 2026-07-28 to
// a server of both eras (run of 2026-12-06 11:37,
// testdata/claude-code-2.1.332-protocol-dual): each ask comes in an
// input_required result and its retry of the call answers elicitation
// (cancel) and roots, never sampling; tools/list_changed reaches it on its
// subscriptions/listen stream and it lists again; without the
// notification the line says the server sent none; without the retries
// every ask is unanswered.
func TestProtocolClaudeCodeModern(t *testing.T) {
	dir := filepath.Join("testdata", "claude-code-2.1.332-protocol-dual")
	reqs, log := load(t, dir, nil)
	p := Protocol(reqs, log, "lab")
	if p == nil || !p.Modern || !slices.Contains(p.Declared, "elicitation.form") {
		t.Fatalf("protocol facts %+v", p)
	}
	var answers []string
	for _, a := range p.Asks {
		if a.Via != ViaInputRequired {
			t.Errorf("%s not in an input_required result", a.Summary())
		}
		answers = append(answers, a.Summary())
	}
	want := []string{"elicitation form: cancel", "elicitation url: cancel", "sampling: no answer", "roots/list: result"}
	if !slices.Equal(want, answers) {
		t.Errorf("answers %q, want %q", answers, want)
	}
	if c := p.Changed; c == nil || !c.Relisted {
		t.Errorf("after tools/list_changed: %+v", c)
	}
	var quiet []lab.Entry
	for _, e := range log {
		if e.Method != "notifications/tools/list_changed" {
			quiet = append(quiet, e)
		}
	}
	q := Protocol(reqs, quiet, "lab")
	lines := ProtocolLines(q, Calls(reqs, quiet), Tools(reqs, quiet, "lab"), nil)
	if !slices.Contains(lines, ProtocolLine{Feature: labvocab.FeatureListChanged, Does: labvocab.DoesNotListening}) {
		t.Errorf("lines %+v lack tools/list_changed not sent", lines)
	}
	var noRetry []lab.Entry
	for _, e := range log {
		if e.Method == "tools/call" && e.Dir == lab.Recv && strings.Contains(string(e.Body), `"inputResponses"`) {
			continue
		}
		noRetry = append(noRetry, e)
	}
	for _, a := range Protocol(reqs, noRetry, "lab").Asks {
		if a.Answer != AskNoAnswer {
			t.Errorf("without the retries, %s", a.Summary())
		}
	}
}

// TestProtocolTask: a tools/call whose params carry a task is the client
// calling that tool as a task; the task-required tool's line says so, or
// that it was called as any tool, never reached the server, or was not
// offered.
func TestProtocolTask(t *testing.T) {
	at := time.Date(2026, 12, 7, 12, 0, 0, 0, time.UTC)
	call := func(id, params string) lab.Entry {
		return lab.Entry{Time: at, Dir: lab.Recv, Kind: lab.KindRequest, Method: "tools/call", ID: json.RawMessage(id),
			Body: json.RawMessage(`{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":` + params + `}`)}
	}
	notice := lab.Entry{Time: at, Dir: lab.Send, Kind: lab.KindNotification, Method: "notifications/message", Body: json.RawMessage(`{"params":{"data":"x"}}`)}
	p := Protocol(nil, []lab.Entry{notice,
		call("1", `{"name":"protocol_task","arguments":{},"task":{"ttl":60000}}`),
		call("2", `{"name":"protocol_log","task":null}`),
		call("3", `{"name":"protocol_task","task":{}}`),
	}, "lab")
	if !slices.Equal(p.Tasked, []string{labvocab.ProtocolTask}) {
		t.Errorf("tasked %q, want protocol_task once (a null task is none)", p.Tasked)
	}
	offered := ToolDef{Tool: labvocab.ProtocolTask, Via: "tools"}
	for _, c := range []struct {
		p     *ProtocolFacts
		calls []CallFacts
		def   ToolDef
		does  string
	}{
		{p, []CallFacts{{Tool: labvocab.ProtocolTask, Reached: true}}, offered, labvocab.DoesCallsAsTask},
		{&ProtocolFacts{}, []CallFacts{{Tool: labvocab.ProtocolTask, Reached: true}}, offered, labvocab.DoesCallsPlain},
		{&ProtocolFacts{}, []CallFacts{{Tool: labvocab.ProtocolTask, Following: 3, Instead: "requires task-based execution"}}, offered, labvocab.DoesNeverCalls},
		{&ProtocolFacts{}, nil, ToolDef{Tool: labvocab.ProtocolTask, Via: ViaNone}, labvocab.DoesHidden},
		{&ProtocolFacts{}, nil, offered, labvocab.DoesOffered},
	} {
		lines := ProtocolLines(c.p, c.calls, []ToolDef{c.def}, nil)
		k := slices.IndexFunc(lines, func(l ProtocolLine) bool { return l.Feature == labvocab.FeatureTask })
		if k < 0 || lines[k].Does != c.does {
			t.Errorf("calls %+v, definition via %q: lines %+v, want %q", c.calls, c.def.Via, lines, c.does)
		}
	}
}

// TestProtocolTaskGiven: a call the server answered with a task (the
// tasks extension) and the client's polls of tasks/get until an answer
// said completed: the line says it polled until it completed and whether
// the result's text then reached the model; a client that never polled,
// or stopped first, says so.
func TestProtocolTaskGiven(t *testing.T) {
	at := time.Date(2026, 12, 7, 13, 0, 0, 0, time.UTC)
	text := "protocol_task content text codeword: SPARROW-7811."
	entry := func(ms int, dir, kind, method, id, body string) lab.Entry {
		return lab.Entry{Time: at.Add(time.Duration(ms) * time.Millisecond), Dir: dir, Kind: kind, Method: method, ID: json.RawMessage(id), Body: json.RawMessage(body)}
	}
	made := entry(0, lab.Send, lab.KindResponse, "tools/call", "2", `{"jsonrpc":"2.0","id":2,"result":{"resultType":"task","taskId":"task-1","status":"working"}}`)
	poll := func(ms int, id string) lab.Entry { return entry(ms, lab.Recv, lab.KindRequest, "tasks/get", id, "") }
	working := entry(1, lab.Send, lab.KindResponse, "tasks/get", "3", `{"jsonrpc":"2.0","id":3,"result":{"status":"working"}}`)
	done := entry(1001, lab.Send, lab.KindResponse, "tasks/get", "4", `{"jsonrpc":"2.0","id":4,"result":{"status":"completed","result":{"content":[{"type":"text","text":"`+text+`"}]}}}`)
	reqs := []Request{{Request: fakeapi.Request{Seq: 1, Body: json.RawMessage("{}")}}, {Request: fakeapi.Request{Seq: 2, Body: json.RawMessage(`{"messages":[{"content":"` + text + `"}]}`)}}}
	offered := []ToolDef{{Tool: labvocab.ProtocolTask, Via: "tools"}}
	for _, c := range []struct {
		name string
		log  []lab.Entry
		does string
	}{
		{"polled, the result reaches the model", []lab.Entry{made, poll(0, "3"), working, poll(1000, "4"), done}, labvocab.DoesTaskPolled + "; its result " + labvocab.DoesReaches},
		{"stopped before", []lab.Entry{made, poll(0, "3"), working}, labvocab.DoesTaskPolls},
		{"never polled", []lab.Entry{made}, labvocab.DoesTaskNoPoll},
	} {
		p := Protocol(reqs, c.log, "lab")
		if p == nil || p.Task == nil {
			t.Fatalf("%s: no task in %+v", c.name, p)
		}
		lines := ProtocolLines(p, nil, offered, nil)
		k := slices.IndexFunc(lines, func(l ProtocolLine) bool { return l.Feature == labvocab.FeatureTask })
		if k < 0 || lines[k].Does != c.does {
			t.Errorf("%s: lines %+v, want %q", c.name, lines, c.does)
		}
	}
	if p := Protocol(reqs, []lab.Entry{made, poll(0, "3"), working, poll(1000, "4"), done}, "lab"); p.Task.Polls != 2 || len(p.Task.GapsMS) != 1 || p.Task.GapsMS[0] != 1000 || p.Task.Model != 2 {
		t.Errorf("task %+v, want 2 polls 1000 ms apart, the result in request 2", p.Task)
	}
}

// TestProtocolResourceUpdated: a client that subscribed to the protocol
// group's resource, was sent notifications/resources/updated and read it
// again: the line says whether the new text reached the model; one that
// did not read it again, or never subscribed (the tool was called, no
// subscription, no notification), says so; a notification without a
// subscription in the log (over 2026-07-28 a client subscribes on its
// subscriptions/listen stream) counts as subscribed.
func TestProtocolResourceUpdated(t *testing.T) {
	at := time.Date(2026, 12, 7, 15, 0, 0, 0, time.UTC)
	text := "protocol_status updated text codeword: HERON-4242."
	entry := func(ms int, dir, kind, method, id, body string) lab.Entry {
		return lab.Entry{Time: at.Add(time.Duration(ms) * time.Millisecond), Dir: dir, Kind: kind, Method: method, ID: json.RawMessage(id), Body: json.RawMessage(body)}
	}
	subscribe := entry(0, lab.Recv, lab.KindRequest, "resources/subscribe", "2", "")
	updated := entry(100, lab.Send, lab.KindNotification, "notifications/resources/updated", "", "")
	read := entry(200, lab.Recv, lab.KindRequest, "resources/read", "5", `{"jsonrpc":"2.0","id":5,"method":"resources/read","params":{"uri":"lab://protocol/status"}}`)
	readBefore := entry(50, lab.Recv, lab.KindRequest, "resources/read", "4", `{"jsonrpc":"2.0","id":4,"method":"resources/read","params":{"uri":"lab://protocol/status"}}`)
	got := entry(201, lab.Send, lab.KindResponse, "resources/read", "5", `{"jsonrpc":"2.0","id":5,"result":{"contents":[{"uri":"lab://protocol/status","text":"`+text+`"}]}}`)
	reqs := []Request{{Request: fakeapi.Request{Seq: 1, Body: json.RawMessage("{}")}}, {Request: fakeapi.Request{Seq: 2, Body: json.RawMessage(`{"messages":[{"content":"` + text + `"}]}`)}}}
	called := []CallFacts{{Tool: labvocab.ProtocolResourceUpdated, Reached: true}}
	for _, c := range []struct {
		name string
		log  []lab.Entry
		reqs []Request
		does string
	}{
		{"read again, the model has it", []lab.Entry{subscribe, updated, read, got}, reqs, labvocab.DoesRereadsReaches},
		{"read again, the model does not", []lab.Entry{subscribe, updated, read, got}, reqs[:1], labvocab.DoesRereadsNeverModel},
		{"never read again", []lab.Entry{subscribe, readBefore, updated}, reqs, labvocab.DoesSubscribesNoReread},
		{"subscribed over a stream", []lab.Entry{updated, read, got}, reqs, labvocab.DoesRereadsReaches},
		{"never subscribed", []lab.Entry{readBefore}, reqs, labvocab.DoesNoSubscribe},
	} {
		p := Protocol(c.reqs, c.log, "lab")
		if p == nil {
			p = &ProtocolFacts{} // nothing asked or announced: the tool was still called
		}
		lines := ProtocolLines(p, called, nil, nil)
		k := slices.IndexFunc(lines, func(l ProtocolLine) bool { return l.Feature == labvocab.FeatureResourceUpdated })
		if k < 0 || lines[k].Does != c.does {
			t.Errorf("%s: lines %+v, want %q", c.name, lines, c.does)
		}
	}
	if lines := ProtocolLines(&ProtocolFacts{}, nil, nil, nil); slices.ContainsFunc(lines, func(l ProtocolLine) bool { return l.Feature == labvocab.FeatureResourceUpdated }) {
		t.Errorf("the tool never called: lines %+v, want no resources/updated", lines)
	}
}
