package fakeapi

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"
)

// OpenAIChat is the OpenAI Chat Completions API: POST /v1/chat/completions,
// streaming (SSE ending in "data: [DONE]") or not. opencode and Qwen Code
// speak it.
type OpenAIChat struct{}

// Name implements API.
func (OpenAIChat) Name() string { return "openai-chat" }

// Match implements API.
func (OpenAIChat) Match(method, path string) bool {
	return method == http.MethodPost && strings.HasSuffix(path, "/chat/completions")
}

type chatBody struct {
	Messages []struct {
		Role       string          `json:"role"`
		Content    json.RawMessage `json:"content"`
		ToolCallID string          `json:"tool_call_id"`
		ToolCalls  []struct {
			ID       string `json:"id"`
			Function struct {
				Name      string `json:"name"`
				Arguments string `json:"arguments"`
			} `json:"function"`
		} `json:"tool_calls"`
	} `json:"messages"`
	Tools []json.RawMessage `json:"tools"`
}

// Context implements API. Chat Completions has no top-level system field:
// its system prompt is the run of system messages that opens the list, so
// those are read as KindSystem, and a system message after the first user
// or assistant message as KindSystemMessage. Developer messages are
// KindDeveloperMessage wherever they are.
func (OpenAIChat) Context(body []byte) (Context, error) {
	var b chatBody
	if err := json.Unmarshal(body, &b); err != nil {
		return nil, fmt.Errorf("decoding chat request: %w", err)
	}
	var ctx Context
	for i, t := range b.Tools {
		ctx = append(ctx, Segment{Kind: KindToolDefinition, Message: i, Path: fmt.Sprintf("tools[%d]", i), Name: toolName(t), Text: string(t)})
	}
	opening := true
	for i, m := range b.Messages {
		kind := roleKind(m.Role)
		if kind != KindSystemMessage && kind != KindDeveloperMessage {
			opening = false
		}
		if kind == KindSystemMessage && opening {
			kind = KindSystem
		}
		p := fmt.Sprintf("messages[%d]", i)
		n := len(ctx)
		ctx = appendParts(ctx, kind, i, p+".content", m.Content)
		for j, c := range m.ToolCalls {
			ctx = append(ctx, Segment{Kind: KindAssistantTurn, Message: i, Path: fmt.Sprintf("%s.tool_calls[%d].function.arguments", p, j),
				Name: c.Function.Name, Call: c.ID, Text: c.Function.Arguments})
		}
		if len(ctx) == n && (kind == KindAssistantTurn || kind == KindToolResult) {
			ctx = append(ctx, Segment{Kind: kind, Message: i, Path: p})
		}
		if kind == KindToolResult {
			for k := n; k < len(ctx); k++ {
				ctx[k].Call = m.ToolCallID
			}
		}
	}
	return ctx, nil
}

// Write implements API. A reply is one assistant message, or one tool call
// when the script calls a tool; usage comes in a last chunk when
// stream_options.include_usage asks for it; response_format json_schema
// gets a value fitting the schema.
func (OpenAIChat) Write(w http.ResponseWriter, path string, body []byte, reply Reply) error {
	var b struct {
		Model         string `json:"model"`
		Stream        bool   `json:"stream"`
		StreamOptions struct {
			IncludeUsage bool `json:"include_usage"`
		} `json:"stream_options"`
		ResponseFormat struct {
			Type       string `json:"type"`
			JSONSchema struct {
				Schema json.RawMessage `json:"schema"`
			} `json:"json_schema"`
		} `json:"response_format"`
	}
	_ = json.Unmarshal(body, &b)
	if b.Model == "" {
		b.Model = "fake-model"
	}
	text := reply.Text
	if b.ResponseFormat.Type == "json_schema" && len(b.ResponseFormat.JSONSchema.Schema) > 0 && len(reply.Calls) == 0 {
		text = string(fitSchema(b.ResponseFormat.JSONSchema.Schema, reply.Text))
	}
	id := "chatcmpl-fake" + reply.num()
	created := time.Now().Unix()
	outTokens := reply.outputTokens(text)
	usage := map[string]int{"prompt_tokens": reply.InputTokens, "completion_tokens": outTokens, "total_tokens": reply.InputTokens + outTokens}
	finish := "stop"
	message := map[string]any{"role": "assistant", "content": text}
	var calls []map[string]any
	for _, c := range reply.Calls {
		calls = append(calls, map[string]any{"id": c.wireID(), "type": "function",
			"function": map[string]any{"name": c.Name, "arguments": string(c.Input)}})
	}
	if len(calls) > 0 {
		finish = "tool_calls"
		message = map[string]any{"role": "assistant", "content": nil, "tool_calls": calls}
	}
	if !b.Stream {
		w.Header().Set("Content-Type", "application/json")
		return json.NewEncoder(w).Encode(map[string]any{"id": id, "object": "chat.completion", "created": created, "model": b.Model,
			"choices": []any{map[string]any{"index": 0, "message": message, "finish_reason": finish}}, "usage": usage})
	}
	sse := newSSE(w)
	chunk := func(choices []any, usage any) {
		c := map[string]any{"id": id, "object": "chat.completion.chunk", "created": created, "model": b.Model, "choices": choices}
		if usage != nil {
			c["usage"] = usage
		}
		sse.event("", c)
	}
	choice := func(delta map[string]any, finish any) []any {
		return []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}}
	}
	// One chunk per call, each whole and with its index, as clients that
	// accumulate calls by index read them.
	for i, call := range calls {
		call["index"] = i
		delta := map[string]any{"tool_calls": []any{call}}
		if i == 0 {
			delta["role"], delta["content"] = "assistant", nil
		}
		chunk(choice(delta, nil), nil)
	}
	if len(calls) == 0 {
		chunk(choice(map[string]any{"role": "assistant", "content": ""}, nil), nil)
		chunk(choice(map[string]any{"content": text}, nil), nil)
	}
	chunk(choice(map[string]any{}, finish), nil)
	if b.StreamOptions.IncludeUsage {
		chunk([]any{}, usage)
	}
	sse.done()
	return sse.err
}
