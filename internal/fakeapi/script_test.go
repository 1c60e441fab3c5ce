package fakeapi

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestOffered: a scripted tool is found under the client's name for it: its
// own, behind a prefix, or by its key when renamed or when two servers
// offer one name; a tool not offered, or offered twice without a key, is
// not.
func TestOffered(t *testing.T) {
	ctx := Context{
		{Kind: KindToolDefinition, Name: "mcp__lab__lookup_part", Text: `{"name":"mcp__lab__lookup_part"}`},
		{Kind: KindToolDefinition, Name: "mcp__lab__twin_tool", Text: `{"description":"twin KEY-ONE"}`},
		{Kind: KindToolDefinition, Name: "mcp__lab2__twin_tool", Text: `{"description":"twin KEY-TWO"}`},
		{Kind: KindToolDefinition, Name: "mcp__lab__name_long_abcdefghijklmnopqrstuvwxyzabcdefgh", Text: `{"description":"long KEY-LONG"}`},
		{Kind: KindToolDefinition, Name: "Bash", Text: `{"name":"Bash"}`},
		{Kind: KindUserTurn, Text: "KEY-USER mcp__lab__ghost"},
	}
	tests := []struct {
		tool, key, want string
		ok              bool
	}{
		{"Bash", "", "Bash", true},
		{"lookup_part", "", "mcp__lab__lookup_part", true},
		{"twin_tool", "", "", false},
		{"twin_tool", "KEY-TWO", "mcp__lab2__twin_tool", true},
		{"name_long_abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwx", "KEY-LONG", "mcp__lab__name_long_abcdefghijklmnopqrstuvwxyzabcdefgh", true},
		{"ghost", "KEY-USER", "", false},
		{"kup_part", "", "", false},
	}
	for _, tt := range tests {
		got, ok := Offered(ctx, tt.tool, tt.key)
		if got != tt.want || ok != tt.ok {
			t.Errorf("Offered(%q, %q) = %q, %v; want %q, %v", tt.tool, tt.key, got, ok, tt.want, tt.ok)
		}
	}
}

// TestScriptParallelCalls: a turn of several calls comes back, in every API
// shape and both streamed and not, as that many well-formed calls under
// the names offered, each with its own id and input; the request records
// them and the tool it did not offer; the request that answers them gets
// the reader's text.
func TestScriptParallelCalls(t *testing.T) {
	script := []Turn{{Tool: "lookup_part", Input: json.RawMessage(`{"part":"M3-0412"}`),
		Calls: []Call{{Tool: "twin_tool", Key: "KEY-TWO"}, {Tool: "absent"}}}}
	wantNames := []string{"mcp__lab__lookup_part", "mcp__lab2__twin_tool"}
	wantInputs := []string{`{"part":"M3-0412"}`, `{}`}
	tests := []struct {
		api, path, body string
		calls           func(t *testing.T, out string, stream bool) (names, inputs, ids []string)
	}{
		{"anthropic", "/v1/messages",
			`{"tools":[{"name":"mcp__lab__lookup_part"},{"name":"mcp__lab__twin_tool","description":"KEY-ONE"},{"name":"mcp__lab2__twin_tool","description":"KEY-TWO"}],"messages":[{"role":"user","content":"go"}]}`,
			anthropicCalls},
		{"chat", "/v1/chat/completions",
			`{"tools":[{"type":"function","function":{"name":"mcp__lab__lookup_part"}},{"type":"function","function":{"name":"mcp__lab2__twin_tool","description":"KEY-TWO"}}],"messages":[{"role":"user","content":"go"}]}`,
			chatCalls},
		{"responses", "/v1/responses",
			`{"tools":[{"type":"function","name":"mcp__lab__lookup_part"},{"type":"function","name":"mcp__lab2__twin_tool","description":"KEY-TWO"}],"input":[{"type":"message","role":"user","content":"go"}]}`,
			responsesCalls},
		{"gemini", "/v1beta/models/m:generateContent",
			`{"tools":[{"functionDeclarations":[{"name":"mcp__lab__lookup_part"},{"name":"mcp__lab2__twin_tool","description":"KEY-TWO"}]}],"contents":[{"role":"user","parts":[{"text":"go"}]}]}`,
			geminiCalls},
	}
	for _, tt := range tests {
		for _, stream := range []bool{false, true} {
			s := start(t, Options{Prompt: testPrompt, Script: script})
			body, path := tt.body, tt.path
			switch {
			case stream && tt.api == "gemini":
				path = strings.Replace(path, ":generateContent", ":streamGenerateContent", 1) + "?alt=sse"
			case stream:
				body = `{"stream":true,` + body[1:]
			}
			_, out := post(t, s.URL+path, "k", body)
			names, inputs, ids := tt.calls(t, out, stream)
			if diff := cmp.Diff(wantNames, names); diff != "" {
				t.Errorf("%s stream=%v: names mismatch (-want +got):\n%s\n%s", tt.api, stream, diff, out)
			}
			if diff := cmp.Diff(wantInputs, inputs); diff != "" {
				t.Errorf("%s stream=%v: inputs mismatch (-want +got):\n%s", tt.api, stream, diff)
			}
			if tt.api != "gemini" && (len(ids) != 2 || ids[0] == ids[1] || ids[0] == "") {
				t.Errorf("%s stream=%v: call ids %q, want two distinct", tt.api, stream, ids)
			}
			rec := s.Recorder.Requests()[0]
			if len(rec.Calls) != 2 || rec.Calls[1].Tool != "twin_tool" || rec.Calls[1].Name != "mcp__lab2__twin_tool" {
				t.Errorf("%s: recorded calls %+v", tt.api, rec.Calls)
			}
			if diff := cmp.Diff([]string{"absent"}, rec.Missed); diff != "" {
				t.Errorf("%s: missed mismatch (-want +got):\n%s", tt.api, diff)
			}
		}
	}
}

func anthropicCalls(t *testing.T, out string, stream bool) (names, inputs, ids []string) {
	if !stream {
		var m struct {
			StopReason string `json:"stop_reason"`
			Content    []struct {
				Type, ID, Name string
				Input          json.RawMessage
			}
		}
		if err := json.Unmarshal([]byte(out), &m); err != nil || m.StopReason != "tool_use" {
			t.Fatalf("anthropic reply %v (stop %q): %s", err, m.StopReason, out)
		}
		for _, c := range m.Content {
			names, inputs, ids = append(names, c.Name), append(inputs, string(c.Input)), append(ids, c.ID)
		}
		return
	}
	_, data, _ := sseData(t, out)
	for _, d := range data {
		switch d["type"] {
		case "content_block_start":
			b := d["content_block"].(map[string]any)
			names, ids = append(names, b["name"].(string)), append(ids, b["id"].(string))
		case "content_block_delta":
			inputs = append(inputs, d["delta"].(map[string]any)["partial_json"].(string))
		}
	}
	return
}

func chatCalls(t *testing.T, out string, stream bool) (names, inputs, ids []string) {
	type call struct {
		Index    int
		ID       string
		Function struct{ Name, Arguments string }
	}
	var calls []call
	if !stream {
		var m struct {
			Choices []struct {
				FinishReason string `json:"finish_reason"`
				Message      struct {
					ToolCalls []call `json:"tool_calls"`
				}
			}
		}
		if err := json.Unmarshal([]byte(out), &m); err != nil || m.Choices[0].FinishReason != "tool_calls" {
			t.Fatalf("chat reply %v: %s", err, out)
		}
		calls = m.Choices[0].Message.ToolCalls
	} else {
		_, data, done := sseData(t, out)
		if !done {
			t.Error("chat stream without [DONE]")
		}
		for _, d := range data {
			b, _ := json.Marshal(d)
			var c struct {
				Choices []struct {
					Delta struct {
						ToolCalls []call `json:"tool_calls"`
					}
				}
			}
			json.Unmarshal(b, &c)
			for _, ch := range c.Choices {
				calls = append(calls, ch.Delta.ToolCalls...)
			}
		}
	}
	for i, c := range calls {
		if c.Index != i && stream {
			t.Errorf("chat call %d has index %d", i, c.Index)
		}
		names, inputs, ids = append(names, c.Function.Name), append(inputs, c.Function.Arguments), append(ids, c.ID)
	}
	return
}

func responsesCalls(t *testing.T, out string, stream bool) (names, inputs, ids []string) {
	var output []map[string]any
	if !stream {
		var m struct{ Output []map[string]any }
		if err := json.Unmarshal([]byte(out), &m); err != nil {
			t.Fatal(err)
		}
		output = m.Output
	} else {
		_, data, _ := sseData(t, out)
		for _, d := range data {
			if d["type"] == "response.output_item.done" {
				output = append(output, d["item"].(map[string]any))
			}
		}
	}
	for _, it := range output {
		if it["type"] != "function_call" {
			t.Errorf("responses output item %v", it)
			continue
		}
		names, inputs, ids = append(names, it["name"].(string)), append(inputs, it["arguments"].(string)), append(ids, it["call_id"].(string))
	}
	return
}

func geminiCalls(t *testing.T, out string, stream bool) (names, inputs, ids []string) {
	if stream {
		_, data, _ := sseData(t, out)
		b, _ := json.Marshal(data[0])
		out = string(b)
	}
	var m struct {
		Candidates []struct {
			Content struct {
				Parts []struct {
					FunctionCall struct {
						Name string
						Args json.RawMessage
					}
				}
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatal(err)
	}
	for _, p := range m.Candidates[0].Content.Parts {
		names, inputs = append(names, p.FunctionCall.Name), append(inputs, string(p.FunctionCall.Args))
	}
	return
}

// TestLoadDeferred: a scripted tool named in a text but not offered is
// loaded first through the client's loader (ToolSearch select:...), both
// servers' tools of one name among them; the loader's turn uses up no
// scripted turn, so the request after it gets the scripted calls.
func TestLoadDeferred(t *testing.T) {
	script := []Turn{{Tool: "result_text", Calls: []Call{{Tool: "twin_tool", Key: "KEY-TWO"}}}}
	listing := Segment{Kind: KindSystemMessage, Text: "Deferred tools:\nmcp__lab__result_text\nmcp__lab__twin_tool\nmcp__lab2__twin_tool\n"}
	first := Context{{Kind: KindToolDefinition, Name: "ToolSearch", Text: `{"name":"ToolSearch"}`}, listing, {Kind: KindUserTurn, Text: "go"}}
	r := plan(script, first, "go", 1)
	if len(r.Calls) != 1 || r.Calls[0].Name != "ToolSearch" {
		t.Fatalf("first reply %+v, want one ToolSearch call", r)
	}
	if want := `{"max_results":3,"query":"select:mcp__lab__result_text,mcp__lab__twin_tool,mcp__lab2__twin_tool"}`; string(r.Calls[0].Input) != want {
		t.Errorf("loader input %s, want %s", r.Calls[0].Input, want)
	}
	if diff := cmp.Diff([]string{"result_text", "twin_tool"}, r.Loading); diff != "" {
		t.Errorf("loading mismatch (-want +got):\n%s", diff)
	}
	loaded := append(first,
		Segment{Kind: KindAssistantTurn, Message: 2, Name: "ToolSearch", Text: string(r.Calls[0].Input)},
		Segment{Kind: KindToolResult, Message: 3, Call: r.Calls[0].ID, Text: "<functions>...</functions>"},
		Segment{Kind: KindToolDefinition, Name: "mcp__lab__result_text", Text: `{}`},
		Segment{Kind: KindToolDefinition, Name: "mcp__lab__twin_tool", Text: `{"description":"KEY-ONE"}`},
		Segment{Kind: KindToolDefinition, Name: "mcp__lab2__twin_tool", Text: `{"description":"KEY-TWO"}`})
	r = plan(script, loaded, "go", 2)
	var names []string
	for _, c := range r.Calls {
		names = append(names, c.Name)
	}
	if diff := cmp.Diff([]string{"mcp__lab__result_text", "mcp__lab2__twin_tool"}, names); diff != "" {
		t.Errorf("calls after loading mismatch (-want +got):\n%s", diff)
	}
	// Without a loader, a deferred tool is missed, not loaded.
	r = plan(script, first[1:], "go", 1)
	if len(r.Calls) != 0 || len(r.Missed) != 2 {
		t.Errorf("without a loader: %+v, want both missed", r)
	}
}

// TestLoadAndInvoke: a client whose loader gives the definitions in its
// result and defines nothing (Qwen Code's tool_search) gets its loader
// called at most Max names a call, in one reply; then each scripted tool,
// never defined, is called through the invoker (tool_call {name,
// arguments}) under the client's name, the twin found by its key on the
// line that lists it; a loaded tool is not loaded again.
func TestLoadAndInvoke(t *testing.T) {
	var calls []Call
	var listing strings.Builder
	listing.WriteString("### MCP servers\n")
	for i := range 21 {
		tool := fmt.Sprintf("schema_%02d", i)
		calls = append(calls, Call{Tool: tool})
		fmt.Fprintf(&listing, "- \"mcp__lab__%s\": \"desc\"\n", tool)
	}
	calls = append(calls, Call{Tool: "twin_tool", Key: "KEY-TWO", Input: json.RawMessage(`{"x":1}`)})
	listing.WriteString("- \"mcp__lab__twin_tool\": \"twin KEY-ONE\"\n- \"mcp__lab2__twin_tool\": \"twin KEY-TWO\"\n")
	script := []Turn{{Calls: calls}}
	first := Context{
		{Kind: KindToolDefinition, Name: "tool_search", Text: `{"name":"tool_search"}`},
		{Kind: KindToolDefinition, Name: "tool_call", Text: `{"name":"tool_call"}`},
		{Kind: KindUserTurn, Message: 1, Text: listing.String()},
	}
	r := plan(script, first, "go", 1)
	if len(r.Calls) != 2 || r.Calls[0].Name != "tool_search" || r.Calls[1].Name != "tool_search" || r.Calls[0].ID == r.Calls[1].ID {
		t.Fatalf("first reply %+v, want two tool_search calls", r.Calls)
	}
	var n0, n1 struct {
		Query      string `json:"query"`
		MaxResults int    `json:"max_results"`
	}
	json.Unmarshal(r.Calls[0].Input, &n0)
	json.Unmarshal(r.Calls[1].Input, &n1)
	if n0.MaxResults != 20 || n1.MaxResults != 3 || !strings.HasSuffix(n1.Query, ",mcp__lab__twin_tool,mcp__lab2__twin_tool") {
		t.Errorf("loader inputs %s and %s, want 20 names then 3", r.Calls[0].Input, r.Calls[1].Input)
	}
	ctx := slices.Clone(first)
	for _, c := range r.Calls {
		ctx = append(ctx, Segment{Kind: KindAssistantTurn, Message: 2, Name: c.Name, Text: string(c.Input)},
			Segment{Kind: KindToolResult, Message: 3, Call: c.ID, Text: "<functions>...</functions>"})
	}
	r = plan(script, ctx, "go", 2)
	if len(r.Calls) != 22 || len(r.Missed) != 0 {
		t.Fatalf("after loading: %d calls, missed %v; want 22 calls", len(r.Calls), r.Missed)
	}
	want := ToolCall{Tool: "twin_tool", Name: "tool_call", Deferred: "mcp__lab2__twin_tool", ID: "toolu_fake0002c21",
		Input: json.RawMessage(`{"arguments":{"x":1},"name":"mcp__lab2__twin_tool"}`)}
	if diff := cmp.Diff(want, r.Calls[21]); diff != "" {
		t.Errorf("twin call mismatch (-want +got):\n%s", diff)
	}
	if c := r.Calls[0]; c.Name != "tool_call" || c.Deferred != "mcp__lab__schema_00" || string(c.Input) != `{"arguments":{},"name":"mcp__lab__schema_00"}` {
		t.Errorf("first call %+v", c)
	}
	// Without the invoker, a loaded tool that is never defined is missed.
	r = plan(script, slices.Delete(slices.Clone(ctx), 1, 2), "go", 2)
	if len(r.Calls) != 0 || len(r.Missed) != 22 {
		t.Errorf("without an invoker: %d calls, %d missed; want all missed", len(r.Calls), len(r.Missed))
	}
}

// TestResponsesNamespace: a tool offered inside a namespace (Codex's
// mcp__lab) is called with the namespace beside its name, streamed or
// not; of two namespaces with one tool name, the key picks; the
// request's record keeps the namespace, and a call echoed back in a later
// request is read with it.
func TestResponsesNamespace(t *testing.T) {
	script := []Turn{{Tool: "result_text", Calls: []Call{{Tool: "twin_tool", Key: "KEY-TWO"}}}}
	body := `{"tools":[{"type":"function","name":"exec_command"},` +
		`{"type":"namespace","name":"mcp__lab","description":"Tools in the mcp__lab namespace.","tools":[{"type":"function","name":"result_text"},{"type":"function","name":"twin_tool","description":"KEY-ONE"}]},` +
		`{"type":"namespace","name":"mcp__lab2","tools":[{"type":"function","name":"twin_tool","description":"KEY-TWO"}]}],` +
		`"input":[{"type":"message","role":"user","content":"go"}]}`
	for _, stream := range []bool{false, true} {
		s := start(t, Options{Prompt: testPrompt, Script: script})
		b := body
		if stream {
			b = `{"stream":true,` + b[1:]
		}
		_, out := post(t, s.URL+"/v1/responses", "k", b)
		var items []map[string]any
		if !stream {
			var m struct{ Output []map[string]any }
			if err := json.Unmarshal([]byte(out), &m); err != nil {
				t.Fatal(err)
			}
			items = m.Output
		} else {
			_, data, _ := sseData(t, out)
			for _, d := range data {
				if d["type"] == "response.output_item.done" {
					items = append(items, d["item"].(map[string]any))
				}
			}
		}
		var got [][2]any
		for _, it := range items {
			got = append(got, [2]any{it["namespace"], it["name"]})
		}
		if diff := cmp.Diff([][2]any{{"mcp__lab", "result_text"}, {"mcp__lab2", "twin_tool"}}, got); diff != "" {
			t.Errorf("stream=%v: namespace and name mismatch (-want +got):\n%s", stream, diff)
		}
		rec := s.Recorder.Requests()[0]
		if len(rec.Calls) != 2 || rec.Calls[0].Namespace != "mcp__lab" || rec.Calls[1].Namespace != "mcp__lab2" {
			t.Errorf("recorded calls %+v", rec.Calls)
		}
	}
	ctx, err := OpenAIResponses{}.Context([]byte(`{"input":[{"type":"function_call","name":"result_text","namespace":"mcp__lab","arguments":"{}","call_id":"c1"}]}`))
	if err != nil || len(ctx) != 1 || ctx[0].Namespace != "mcp__lab" || ctx[0].Name != "result_text" {
		t.Errorf("echoed call read as %+v, %v", ctx, err)
	}
	// Outside a namespace, no namespace is sent.
	ctx, _ = OpenAIResponses{}.Context([]byte(body))
	if def, ok := (Names{}).Find(ctx, "exec_command", ""); !ok || def.Namespace != "" {
		t.Errorf("exec_command offered as %+v, %v", def, ok)
	}
	if _, ok := (Names{}).Find(ctx, "twin_tool", ""); ok {
		t.Error("twin_tool of two namespaces found without a key")
	}
}
