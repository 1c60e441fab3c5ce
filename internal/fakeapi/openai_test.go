package fakeapi

import (
	"bufio"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestOpenAIResponsesContext(t *testing.T) {
	body := `{
	  "model": "gpt-5", "stream": true,
	  "instructions": "You are Codex.",
	  "tools": [{"type": "function", "name": "shell", "parameters": {}}, {"type": "web_search"}],
	  "input": [
	    {"type": "additional_tools", "role": "developer", "tools": [{"type": "namespace", "name": "functions", "description": "", "tools": [{"type": "custom", "name": "exec"}]}, {"type": "namespace", "name": "mcp__lab", "description": "ns text", "tools": []}]},
	    {"type": "message", "role": "developer", "content": [{"type": "input_text", "text": "dev text"}]},
	    {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "prompt"}, {"type": "input_image", "image_url": "x"}]},
	    {"type": "reasoning", "summary": []},
	    {"type": "function_call", "name": "shell", "arguments": "{\"command\":[\"sleep\",\"10\"]}", "call_id": "c1"},
	    {"type": "function_call_output", "call_id": "c1", "output": "done"},
	    {"type": "function_call_output", "call_id": "c2", "output": [{"type": "input_text", "text": "two"}, {"type": "input_image", "image_url": "data:image/png;base64,iVBOR"}]},
	    {"role": "system", "content": "late system"},
	    {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "ok"}]}
	  ]}`
	got, err := OpenAIResponses{}.Context([]byte(body))
	if err != nil {
		t.Fatal(err)
	}
	want := Context{
		{Kind: KindToolDefinition, Path: "tools[0]", Name: "shell", Text: `{"type": "function", "name": "shell", "parameters": {}}`},
		{Kind: KindToolDefinition, Message: 1, Path: "tools[1]", Name: "web_search", Text: `{"type": "web_search"}`},
		{Kind: KindSystem, Path: "instructions", Text: "You are Codex."},
		{Kind: KindToolDefinition, Path: "input[0].tools[0].tools[0]", Name: "exec", Namespace: "functions", Text: `{"type": "custom", "name": "exec"}`},
		{Kind: KindToolDefinition, Path: "input[0].tools[1].description", Name: "mcp__lab", Text: "ns text"},
		{Kind: KindDeveloperMessage, Message: 1, Path: "input[1].content[0].text", Text: "dev text"},
		{Kind: KindUserTurn, Message: 2, Path: "input[2].content[0].text", Text: "prompt"},
		{Kind: KindUserTurn, Message: 2, Path: "input[2].content[1].image_url", Media: "image", Data: "x"},
		{Kind: KindAssistantTurn, Message: 4, Path: "input[4].arguments", Name: "shell", Text: `{"command":["sleep","10"]}`},
		{Kind: KindToolResult, Message: 5, Path: "input[5].output", Text: "done", Call: "c1"},
		{Kind: KindToolResult, Message: 6, Path: "input[6].output[0].text", Text: "two", Call: "c2"},
		{Kind: KindToolResult, Message: 6, Path: "input[6].output[1].image_url", Call: "c2", Media: "image/png", Data: "data:image/png;base64,iVBOR"},
		{Kind: KindSystemMessage, Message: 7, Path: "input[7].content", Text: "late system"},
		{Kind: KindAssistantTurn, Message: 8, Path: "input[8].content[0].text", Text: "ok"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Context mismatch (-want +got):\n%s", diff)
	}
	if n := assistantTurns(got, ""); n != 2 {
		t.Errorf("assistantTurns = %d, want 2", n)
	}
}

func TestOpenAIResponsesContextStringInput(t *testing.T) {
	got, err := OpenAIResponses{}.Context([]byte(`{"input":"hello"}`))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(Context{{Kind: KindUserTurn, Path: "input", Text: "hello"}}, got); diff != "" {
		t.Errorf("Context mismatch (-want +got):\n%s", diff)
	}
	if _, err := (OpenAIResponses{}).Context([]byte(`{"input":{"a":1}}`)); err == nil {
		t.Error("Context accepted an object as input")
	}
}

func TestOpenAIChatContext(t *testing.T) {
	body := `{
	  "model": "fake-model", "stream": true,
	  "tools": [{"type": "function", "function": {"name": "lab_ping", "description": "ping"}}],
	  "messages": [
	    {"role": "system", "content": "system one"},
	    {"role": "system", "content": [{"type": "text", "text": "system two"}]},
	    {"role": "user", "content": "prompt"},
	    {"role": "assistant", "content": null, "tool_calls": [{"id": "c", "type": "function", "function": {"name": "bash", "arguments": "{\"command\":\"sleep 10\"}"}}]},
	    {"role": "tool", "tool_call_id": "c", "content": "done"},
	    {"role": "system", "content": "a late system message"},
	    {"role": "developer", "content": "dev"}
	  ]}`
	got, err := OpenAIChat{}.Context([]byte(body))
	if err != nil {
		t.Fatal(err)
	}
	want := Context{
		{Kind: KindToolDefinition, Path: "tools[0]", Name: "lab_ping", Text: `{"type": "function", "function": {"name": "lab_ping", "description": "ping"}}`},
		{Kind: KindSystem, Path: "messages[0].content", Text: "system one"},
		{Kind: KindSystem, Message: 1, Path: "messages[1].content[0].text", Text: "system two"},
		{Kind: KindUserTurn, Message: 2, Path: "messages[2].content", Text: "prompt"},
		{Kind: KindAssistantTurn, Message: 3, Path: "messages[3].tool_calls[0].function.arguments", Name: "bash", Call: "c", Text: `{"command":"sleep 10"}`},
		{Kind: KindToolResult, Message: 4, Path: "messages[4].content", Text: "done", Call: "c"},
		{Kind: KindSystemMessage, Message: 5, Path: "messages[5].content", Text: "a late system message"},
		{Kind: KindDeveloperMessage, Message: 6, Path: "messages[6].content", Text: "dev"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Context mismatch (-want +got):\n%s", diff)
	}
}

// sseData returns the data lines of an SSE stream, decoded when JSON.
func sseData(t *testing.T, stream string) (events []string, data []map[string]any, done bool) {
	t.Helper()
	sc := bufio.NewScanner(strings.NewReader(stream))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if name, ok := strings.CutPrefix(line, "event: "); ok {
			events = append(events, name)
		}
		d, ok := strings.CutPrefix(line, "data: ")
		if !ok {
			continue
		}
		if d == "[DONE]" {
			done = true
			continue
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(d), &m); err != nil {
			t.Fatalf("bad SSE data %q: %v", d, err)
		}
		data = append(data, m)
	}
	return events, data, done
}

func TestServerResponsesStream(t *testing.T) {
	s := start(t, Options{Prompt: testPrompt, Script: []Turn{{Tool: "shell", Input: json.RawMessage(`{"command":["sleep","10"]}`)}}})
	first := `{"model":"gpt-x","stream":true,"tools":[{"type":"function","name":"shell"}],
	  "input":[{"type":"message","role":"developer","content":[{"type":"input_text","text":"BEGIN codeword: HERON-4821. [at 250] END codeword: OSPREY-3094."}]},
	  {"type":"message","role":"user","content":[{"type":"input_text","text":"` + testPrompt + `"}]}]}`
	_, out := post(t, s.URL+"/v1/responses", "k", first)
	events, data, _ := sseData(t, out)
	wantEvents := []string{"response.created", "response.in_progress", "response.output_item.added",
		"response.function_call_arguments.delta", "response.function_call_arguments.done", "response.output_item.done", "response.completed"}
	if diff := cmp.Diff(wantEvents, events); diff != "" {
		t.Errorf("tool call events mismatch (-want +got):\n%s", diff)
	}
	item := data[len(data)-2]["item"].(map[string]any)
	if item["type"] != "function_call" || item["name"] != "shell" || item["arguments"] != `{"command":["sleep","10"]}` {
		t.Errorf("function call item %v", item)
	}
	second := strings.Replace(first, `]}]}`, `]},{"type":"function_call","name":"shell","arguments":"{}","call_id":"c"},{"type":"function_call_output","call_id":"c","output":"ok"}]}`, 1)
	_, out = post(t, s.URL+"/v1/responses", "k", second)
	events, data, _ = sseData(t, out)
	if events[len(events)-1] != "response.completed" {
		t.Fatalf("last event %q", events[len(events)-1])
	}
	var text string
	for _, d := range data {
		if d["type"] == "response.output_text.delta" {
			text += d["delta"].(string)
		}
	}
	if want := "BEGIN=HERON-4821 END=OSPREY-3094 LAST=250"; text != want {
		t.Errorf("reply %q, want %q", text, want)
	}
	resp := data[len(data)-1]["response"].(map[string]any)
	if resp["status"] != "completed" || resp["usage"].(map[string]any)["input_tokens"].(float64) <= 0 {
		t.Errorf("completed response %v", resp)
	}
	for i, d := range data {
		if d["sequence_number"].(float64) != float64(i) {
			t.Errorf("event %d has sequence_number %v", i, d["sequence_number"])
		}
	}
}

func TestServerChatStream(t *testing.T) {
	s := start(t, Options{Prompt: testPrompt})
	body := `{"model":"fake-model","stream":true,"stream_options":{"include_usage":true},
	  "messages":[{"role":"system","content":"BEGIN codeword: HERON-4821. [at 250]"},{"role":"user","content":"` + testPrompt + `"}]}`
	resp, out := post(t, s.URL+"/v1/chat/completions", "k", body)
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("content type %q", ct)
	}
	_, data, done := sseData(t, out)
	if !done {
		t.Error("no data: [DONE]")
	}
	var text string
	var finish []any
	for _, d := range data {
		for _, c := range d["choices"].([]any) {
			ch := c.(map[string]any)
			if s, ok := ch["delta"].(map[string]any)["content"].(string); ok {
				text += s
			}
			finish = append(finish, ch["finish_reason"])
		}
	}
	if want := "BEGIN=HERON-4821 END=NONE LAST=250"; text != want {
		t.Errorf("reply %q, want %q", text, want)
	}
	if diff := cmp.Diff([]any{nil, nil, "stop"}, finish); diff != "" {
		t.Errorf("finish reasons mismatch (-want +got):\n%s", diff)
	}
	last := data[len(data)-1]
	if len(last["choices"].([]any)) != 0 || last["usage"] == nil {
		t.Errorf("last chunk %v, want the usage chunk", last)
	}
}

func TestServerChatToolCallAndSchema(t *testing.T) {
	s := start(t, Options{Prompt: testPrompt, Script: []Turn{{Tool: "bash", Input: json.RawMessage(`{"command":"sleep 10"}`)}}})
	body := `{"stream":true,"tools":[{"type":"function","function":{"name":"bash"}}],"messages":[{"role":"user","content":"go"}]}`
	_, out := post(t, s.URL+"/v1/chat/completions", "k", body)
	_, data, _ := sseData(t, out)
	call := data[0]["choices"].([]any)[0].(map[string]any)["delta"].(map[string]any)["tool_calls"].([]any)[0].(map[string]any)
	if fn := call["function"].(map[string]any); fn["name"] != "bash" || fn["arguments"] != `{"command":"sleep 10"}` || call["index"].(float64) != 0 {
		t.Errorf("tool call %v", call)
	}
	if f := data[len(data)-1]["choices"].([]any)[0].(map[string]any)["finish_reason"]; f != "tool_calls" {
		t.Errorf("finish_reason %v", f)
	}
	schema := `{"messages":[{"role":"user","content":"who speaks next?"}],"response_format":{"type":"json_schema","json_schema":{"name":"x","schema":
	  {"type":"object","properties":{"reasoning":{"type":"string"},"next_speaker":{"type":"string","enum":["user","model"]}},"required":["next_speaker"]}}}}`
	_, out = post(t, s.URL+"/v1/chat/completions", "k", schema)
	var msg struct {
		Choices []struct {
			Message struct{ Content string } `json:"message"`
		} `json:"choices"`
	}
	if err := json.Unmarshal([]byte(out), &msg); err != nil {
		t.Fatalf("non-stream reply %q: %v", out, err)
	}
	want := `{"next_speaker":"user","reasoning":"BEGIN=NONE END=NONE LAST=NONE"}`
	if got := msg.Choices[0].Message.Content; got != want {
		t.Errorf("schema reply %s, want %s", got, want)
	}
}

func FuzzOpenAIContext(f *testing.F) {
	f.Add([]byte(`{"instructions":"s","input":[{"type":"message","role":"developer","content":[{"type":"input_text","text":"x"}]}],"tools":[{"name":"x"}]}`))
	f.Add([]byte(`{"input":[{"type":"function_call_output","output":[{"type":"input_text","text":"t"}]},{"type":"custom_tool_call","input":"x"}]}`))
	f.Add([]byte(`{"messages":[{"role":"assistant","content":null,"tool_calls":[{"function":{"name":"b","arguments":"{}"}}]},{"role":"tool","content":[1]}]}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		for _, api := range []API{OpenAIResponses{}, OpenAIChat{}} {
			ctx, err := api.Context(body)
			if err != nil {
				continue
			}
			_ = Read(ctx, "")
			_ = ctx.Chars()
			var v any
			if json.Unmarshal(body, &v) != nil {
				t.Fatalf("%s accepted invalid JSON %q", api.Name(), body)
			}
		}
	})
}
