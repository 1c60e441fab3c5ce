package probe

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/instrlab/instrlab/lab"
)

// callsOf are the calls of a probe's legacy era by tool.
func callsOf(t *testing.T, r Result) map[string]CallResult {
	t.Helper()
	if len(r.Modern.Calls) > 0 {
		t.Errorf("the modern era called %d tools: a server that answers initialize is called in the legacy era only", len(r.Modern.Calls))
	}
	out := map[string]CallResult{}
	for _, c := range r.Legacy.Calls {
		out[c.Tool] = c
	}
	return out
}

// TestProbeCalls: check -call on the lab over stdio. Each call is
// measured, never kept: a result's text in characters, UTF-16 units,
// bytes and tokens, its structuredContent apart; a result that is not a
// CallToolResult, a JSON-RPC error, an unknown tool and a tool that never
// answers are each told, and a call after the silent one is still made;
// a tool the server did not list is not called.
func TestProbeCalls(t *testing.T) {
	o := quick
	o.Timeout = 2 * time.Second
	for _, name := range []string{"result_size", "result_both", "result_structured", "bad_no_content", "bad_content_type", "bad_protocol_error", "bad_hang", "nope"} {
		o.Calls = append(o.Calls, Call{Tool: name})
	}
	o.Calls = append(o.Calls, Call{Tool: "result_text", Input: json.RawMessage(`{"note":"x"}`)})
	r := Probe(context.Background(), testServer(t, "-surface results,size,bad,hang -result-size japanese:100"), o)
	if !r.Legacy.OK() {
		t.Fatalf("legacy era %s: %s", r.Legacy.Outcome, r.Legacy.Detail)
	}
	calls := callsOf(t, r)
	if len(calls) != len(o.Calls) {
		t.Fatalf("%d calls recorded, want %d: %+v", len(calls), len(o.Calls), r.Legacy.Calls)
	}

	size := calls["result_size"]
	if size.Outcome != OutcomeOK || size.Text == nil || size.Blocks["text"] != 1 || size.Structured != nil {
		t.Fatalf("result_size = %+v, want one text block and no structuredContent", size)
	}
	// The generated text is Japanese around ASCII markers and codewords.
	if s := *size.Text; s.Chars != 100 || s.UTF16 != 100 || s.Bytes <= 150 || s.Bytes > 300 || s.Tokens <= 0 {
		t.Errorf("result_size of 100 Japanese characters measured %+v: want 100 characters and UTF-16 units, 151 to 300 bytes, some tokens", s)
	}
	if size.Text.ASCII() {
		t.Error("Japanese text measured as ASCII")
	}
	if c := calls["result_both"]; c.Text == nil || c.Structured == nil {
		t.Errorf("result_both = %+v, want content text and structuredContent", c)
	}
	if c := calls["result_structured"]; c.Outcome != OutcomeOK || c.Text != nil || c.Structured == nil {
		t.Errorf("result_structured = %+v, want structuredContent alone", c)
	}
	if c := calls["result_text"]; c.Outcome != OutcomeOK || string(c.Input) != `{"note":"x"}` {
		t.Errorf("result_text = %+v, want ok with its input kept", c)
	}
	for name, want := range map[string]struct {
		outcome Outcome
		detail  string
	}{
		"bad_no_content":     {OutcomeInvalid, "no content"},
		"bad_content_type":   {OutcomeInvalid, "not a CallToolResult"},
		"bad_protocol_error": {OutcomeError, "error -32603"},
		"bad_hang":           {OutcomeSilent, "no reply within 2s"},
		"nope":               {NotListed, "does not name it"},
	} {
		c := calls[name]
		if c.Outcome != want.outcome || !strings.Contains(c.Detail, want.detail) {
			t.Errorf("%s = %s (%s), want %s with %q", name, c.Outcome, c.Detail, want.outcome, want.detail)
		}
	}
	if d := calls["bad_hang"].Elapsed.D(); d < 2*time.Second {
		t.Errorf("bad_hang gave up after %v, before its timeout", d)
	}
}

// TestProbeHTTPCalls: the same calls over Streamable HTTP, through the
// SDK's client, measured from the reply as the server wrote it.
func TestProbeHTTPCalls(t *testing.T) {
	in, _ := lab.ParseInstructions("ascii:1000")
	size, _ := lab.ParseInstructions("ascii:2000")
	l, err := lab.New(lab.Config{Instructions: in, Eras: lab.ModeLegacy,
		Surface: lab.SurfaceConfig{Groups: []lab.SurfaceGroup{lab.SurfaceResults, lab.SurfaceSize, lab.SurfaceBad}, ResultSize: size}})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(l.Handler())
	t.Cleanup(srv.Close)
	o := quick
	o.Calls = []Call{{Tool: "result_size"}, {Tool: "bad_protocol_error"}, {Tool: "bad_no_content"}, {Tool: "result_structured"}, {Tool: "nope"}}
	r := Probe(context.Background(), Target{Name: "lab", Transport: TransportHTTP, URL: srv.URL}, o)
	calls := callsOf(t, r)
	if c := calls["result_size"]; c.Outcome != OutcomeOK || c.Text == nil || c.Text.Chars != 2000 || !c.Text.ASCII() {
		t.Errorf("result_size = %+v, want 2,000 ASCII characters", c)
	}
	if c := calls["bad_protocol_error"]; c.Outcome != OutcomeError || !strings.Contains(c.Detail, "-32603") {
		t.Errorf("bad_protocol_error = %+v, want the JSON-RPC error", c)
	}
	if c := calls["bad_no_content"]; c.Outcome != OutcomeInvalid {
		t.Errorf("bad_no_content = %+v, want invalid: no content", c)
	}
	if c := calls["result_structured"]; c.Outcome != OutcomeOK || c.Structured == nil || c.Text != nil {
		t.Errorf("result_structured = %+v, want structuredContent alone", c)
	}
	if c := calls["nope"]; c.Outcome != NotListed {
		t.Errorf("nope = %+v, want not called: not listed", c)
	}
}

func TestSizeOf(t *testing.T) {
	for _, tt := range []struct {
		s    string
		want Size
	}{
		{"abc", Size{Chars: 3, UTF16: 3, Bytes: 3}},
		{"日本", Size{Chars: 2, UTF16: 2, Bytes: 6}},
		{"😀a", Size{Chars: 2, UTF16: 3, Bytes: 5}},
	} {
		got := SizeOf(tt.s)
		got.Tokens = 0
		if got != tt.want {
			t.Errorf("SizeOf(%q) = %+v, want %+v", tt.s, got, tt.want)
		}
	}
}

// TestProbeCallsWhenToolsFailed: with no tool list to check a call
// against, the tool is called, and the server's answer told.
func TestProbeCallsWhenToolsFailed(t *testing.T) {
	o := quick
	o.Calls = []Call{{Tool: "lookup"}}
	r := Probe(context.Background(), testServer(t, "tools-error"), o)
	if r.Legacy.ToolsError == "" {
		t.Fatal("tools/list did not fail")
	}
	if c := callsOf(t, r)["lookup"]; c.Outcome != OutcomeError || !strings.Contains(c.Detail, "-32601") {
		t.Errorf("lookup = %+v, want called, and the server's error", c)
	}
}

// TestCallSameData: a result whose one text block holds its
// structuredContent's JSON value, in any spacing, carries the same data
// in both parts; another value, or two blocks, do not.
func TestCallSameData(t *testing.T) {
	for _, tt := range []struct {
		result string
		want   bool
	}{
		{`{"content":[{"type":"text","text":"{\"a\": 1, \"b\": [true]}"}],"structuredContent":{"b":[true],"a":1}}`, true},
		{`{"content":[{"type":"text","text":"{\"a\": 2}"}],"structuredContent":{"a":1}}`, false},
		{`{"content":[{"type":"text","text":"a is 1"}],"structuredContent":{"a":1}}`, false},
		{`{"content":[{"type":"text","text":"{\"a\":1}"},{"type":"text","text":"more"}],"structuredContent":{"a":1}}`, false},
		{`{"content":[{"type":"text","text":"{\"a\":1}"}]}`, false},
	} {
		var c CallResult
		c.measure(json.RawMessage(tt.result))
		if c.SameData != tt.want {
			t.Errorf("%s: same data %v, want %v", tt.result, c.SameData, tt.want)
		}
	}
}

// TestCallStructuredType: a structuredContent that is not an object (the
// specification requires one) is named by its JSON type; an object, or
// none, is not. A null one has no size (nothing to give the model).
func TestCallStructuredType(t *testing.T) {
	for _, tt := range []struct {
		structured, want string
		sized            bool
	}{
		{`{"a":1}`, "", true},
		{` null`, "null", false},
		{`"text"`, "string", true},
		{`["a"]`, "array", true},
		{`12`, "number", true},
		{`true`, "boolean", true},
		{``, "", false},
	} {
		result := `{"content":[{"type":"text","text":"t"}]`
		if tt.structured != "" {
			result += `,"structuredContent":` + tt.structured
		}
		var c CallResult
		c.measure(json.RawMessage(result + "}"))
		if c.Outcome != OutcomeOK || c.StructuredType != tt.want || (c.Structured != nil) != tt.sized {
			t.Errorf("structuredContent %s: outcome %s, type %q, sized %v; want ok, %q, %v", tt.structured, c.Outcome, c.StructuredType, c.Structured != nil, tt.want, tt.sized)
		}
	}
}

// TestProbeCallsHeard: what the server sends while a call runs is kept by
// method: the lab's protocol group logs (notifications/message, at its own
// level: check sets none), asks for roots (check answers -32601) and
// announces a tool it added; it sends no elicitation to check, which
// declares no capability; a call that sends nothing hears nothing.
func TestProbeCallsHeard(t *testing.T) {
	o := quick
	for _, name := range []string{"protocol_log", "protocol_roots", "protocol_list_changed", "protocol_elicit_form", "protocol_header"} {
		o.Calls = append(o.Calls, Call{Tool: name})
	}
	r := Probe(context.Background(), testServer(t, "-surface protocol"), o)
	calls := callsOf(t, r)
	for tool, want := range map[string][]string{
		"protocol_log":          {"notifications/message"},
		"protocol_roots":        {"roots/list"},
		"protocol_list_changed": {"notifications/tools/list_changed"},
		"protocol_elicit_form":  nil,
		"protocol_header":       nil,
	} {
		if got := calls[tool].Heard; !slices.Equal(got, want) {
			t.Errorf("%s heard %q, want %q", tool, got, want)
		}
	}
}

// TestProbeCallsModernOnly: a modern-only server (no initialize result) is
// called in the modern era, each tool once, with the 2026-07-28 _meta; a
// result of resultType input_required is told by the methods it asks for,
// in the order of their keys, with nothing to measure; a result that
// completes is measured as in the legacy era. A server of both eras is
// still called in the legacy era alone (callsOf, TestProbeCallsHeard).
func TestProbeCallsModernOnly(t *testing.T) {
	o := quick
	for _, name := range []string{"protocol_sample", "protocol_elicit_form", "protocol_header"} {
		o.Calls = append(o.Calls, Call{Tool: name})
	}
	r := Probe(context.Background(), testServer(t, "-surface protocol -eras modern"), o)
	if r.Legacy.OK() || !r.Modern.OK() {
		t.Fatalf("eras: legacy %s, modern %s (%s)", r.Legacy.Outcome, r.Modern.Outcome, r.Modern.Detail)
	}
	if len(r.Legacy.Calls) != 0 || len(r.Modern.Calls) != 3 || len(r.Calls()) != 3 {
		t.Fatalf("calls: legacy %+v, modern %+v; want the three in the modern era", r.Legacy.Calls, r.Modern.Calls)
	}
	for _, c := range r.Modern.Calls {
		switch c.Tool {
		case "protocol_sample":
			if c.Outcome != OutcomeOK || !slices.Equal(c.InputRequired, []string{"sampling/createMessage"}) || c.Text != nil {
				t.Errorf("%s = %+v, want input_required asking for sampling/createMessage, nothing measured", c.Tool, c)
			}
		case "protocol_elicit_form":
			if !slices.Equal(c.InputRequired, []string{"elicitation/create"}) {
				t.Errorf("%s = %+v, want input_required asking for elicitation/create", c.Tool, c)
			}
		case "protocol_header":
			if c.Outcome != OutcomeOK || c.InputRequired != nil || c.Text == nil {
				t.Errorf("%s = %+v, want a result measured", c.Tool, c)
			}
		}
	}
	// Both eras: the legacy one alone calls, once each.
	dual := Probe(context.Background(), testServer(t, "-surface protocol -eras legacy,modern"), o)
	if calls := callsOf(t, dual); len(calls) != 3 || calls["protocol_sample"].InputRequired != nil {
		t.Errorf("a server of both eras: legacy calls %+v", dual.Legacy.Calls)
	}
}

// TestMeasureInputRequired: the asks of an input_required result are
// bounded (the first maxHeard by key) and each method clipped; a result
// whose inputRequests is not an object is invalid, not an empty ask.
func TestMeasureInputRequired(t *testing.T) {
	asks := map[string]any{}
	for i := range maxHeard + 6 {
		asks[fmt.Sprintf("k%03d", i)] = map[string]any{"method": "roots/list"}
	}
	asks["k000"] = map[string]any{"method": strings.Repeat("x", 500)}
	b, _ := json.Marshal(map[string]any{"resultType": "input_required", "inputRequests": asks})
	var c CallResult
	c.measure(b)
	if c.Outcome != OutcomeOK || len(c.InputRequired) != maxHeard || len(c.InputRequired[0]) > 110 || c.InputRequired[1] != "roots/list" {
		t.Errorf("measure = %s, %d asks, first %d bytes; want %d asks, the first clipped", c.Outcome, len(c.InputRequired), len(c.InputRequired[0]), maxHeard)
	}
	var bad CallResult
	bad.measure(json.RawMessage(`{"resultType":"input_required","inputRequests":[1,2]}`))
	if bad.Outcome != OutcomeInvalid || bad.InputRequired != nil {
		t.Errorf("inputRequests as a list: %+v, want invalid", bad)
	}
}

// TestProbeHTTPCallsModernOnly: over Streamable HTTP too, a modern-only
// server is called in the modern era, and an input_required result is told
// by what it asks.
func TestProbeHTTPCallsModernOnly(t *testing.T) {
	l, err := lab.New(lab.Config{Eras: lab.ModeModern, Surface: lab.SurfaceConfig{Groups: []lab.SurfaceGroup{lab.SurfaceProtocol}}})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(l.Handler())
	t.Cleanup(srv.Close)
	o := quick
	o.Calls = []Call{{Tool: "protocol_sample"}, {Tool: "protocol_header"}}
	r := Probe(context.Background(), Target{Name: "lab", Transport: TransportHTTP, URL: srv.URL}, o)
	if r.Legacy.OK() || !r.Modern.OK() || len(r.Legacy.Calls) != 0 || len(r.Modern.Calls) != 2 {
		t.Fatalf("legacy %s %+v, modern %s %+v", r.Legacy.Outcome, r.Legacy.Calls, r.Modern.Outcome, r.Modern.Calls)
	}
	if c := r.Modern.Calls[0]; !slices.Equal(c.InputRequired, []string{"sampling/createMessage"}) {
		t.Errorf("protocol_sample = %+v, want input_required asking for sampling/createMessage", c)
	}
	if c := r.Modern.Calls[1]; c.Outcome != OutcomeOK || c.Text == nil {
		t.Errorf("protocol_header = %+v, want a result measured", c)
	}
}
