package fakeapi

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestAnthropicContext(t *testing.T) {
	body := `{
	  "model": "claude-opus-5-5", "stream": true,
	  "system": [{"type": "text", "text": "sys one"}, {"type": "text", "text": "sys two", "cache_control": {"type": "ephemeral"}}],
	  "tools": [{"name": "Bash", "description": "run"}, {"name": "DeferredToolPlaceholder", "defer_loading": true}],
	  "thinking": {"type": "adaptive"},
	  "messages": [
	    {"role": "user", "content": [{"type": "text", "text": "<system-reminder>hi</system-reminder>"}, {"type": "text", "text": "prompt"}]},
	    {"role": "system", "content": [{"type": "text", "text": "# MCP Server Instructions"}]},
	    {"role": "assistant", "content": [{"type": "thinking", "thinking": "hm"}, {"type": "tool_use", "id": "toolu_1", "name": "Bash", "input": {"command": "sleep 10"}}]},
	    {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "done"}, {"type": "tool_result", "tool_use_id": "toolu_2", "is_error": true, "content": [{"type": "text", "text": "failed"}, {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "iVBOR"}}]}, {"type": "tool_result", "tool_use_id": "toolu_3", "content": []}, {"type": "document", "source": {"type": "text", "media_type": "text/plain", "data": "doc text"}}]},
	    {"role": "assistant", "content": [{"type": "thinking", "thinking": "only thinking"}]},
	    {"role": "user", "content": "plain string"}
	  ]}`
	got, err := Anthropic{}.Context([]byte(body))
	if err != nil {
		t.Fatal(err)
	}
	want := Context{
		{Kind: KindToolDefinition, Message: 0, Path: "tools[0]", Name: "Bash", Text: `{"name": "Bash", "description": "run"}`},
		{Kind: KindToolDefinition, Message: 1, Path: "tools[1]", Name: "DeferredToolPlaceholder", Text: `{"name": "DeferredToolPlaceholder", "defer_loading": true}`},
		{Kind: KindSystem, Path: "system[0].text", Text: "sys one"},
		{Kind: KindSystem, Path: "system[1].text", Text: "sys two"},
		{Kind: KindUserTurn, Path: "messages[0].content[0].text", Text: "<system-reminder>hi</system-reminder>"},
		{Kind: KindUserTurn, Path: "messages[0].content[1].text", Text: "prompt"},
		{Kind: KindSystemMessage, Message: 1, Path: "messages[1].content[0].text", Text: "# MCP Server Instructions"},
		{Kind: KindAssistantTurn, Message: 2, Path: "messages[2].content[1].input", Name: "Bash", Text: `{"command": "sleep 10"}`},
		{Kind: KindToolResult, Message: 3, Path: "messages[3].content[0].content", Text: "done", Call: "toolu_1"},
		{Kind: KindToolResult, Message: 3, Path: "messages[3].content[1].content[0].text", Text: "failed", Call: "toolu_2", Error: true},
		{Kind: KindToolResult, Message: 3, Path: "messages[3].content[1].content[1].source", Call: "toolu_2", Error: true, Media: "image/png", Data: "iVBOR"},
		{Kind: KindToolResult, Message: 3, Path: "messages[3].content[2].content", Call: "toolu_3"},
		{Kind: KindUserTurn, Message: 3, Path: "messages[3].content[3].source.data", Text: "doc text"},
		{Kind: KindAssistantTurn, Message: 4, Path: "messages[4]"},
		{Kind: KindUserTurn, Message: 5, Path: "messages[5].content", Text: "plain string"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Context mismatch (-want +got):\n%s", diff)
	}
	if n := assistantTurns(got, ""); n != 2 {
		t.Errorf("assistantTurns = %d, want 2", n)
	}
}

func TestAnthropicContextRejectsNonObject(t *testing.T) {
	if _, err := (Anthropic{}).Context([]byte(`[1,2]`)); err == nil {
		t.Error("Context accepted a JSON array")
	}
}

func FuzzAnthropicContext(f *testing.F) {
	f.Add([]byte(`{"system":"s","messages":[{"role":"user","content":"hi"}],"tools":[{"name":"x"}]}`))
	f.Add([]byte(`{"messages":[{"role":"assistant","content":[{"type":"tool_result","content":[{"type":"text","text":"t"}]}]}]}`))
	f.Add([]byte(`{"system":[1,2,{}],"messages":[{"content":null}]}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		ctx, err := Anthropic{}.Context(body)
		if err != nil {
			return
		}
		_ = Read(ctx, "")
		_ = ctx.Chars()
		var v any
		if json.Unmarshal(body, &v) != nil {
			t.Fatalf("Context accepted invalid JSON %q", body)
		}
	})
}
