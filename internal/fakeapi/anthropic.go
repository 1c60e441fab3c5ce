package fakeapi

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/instrlab/instrlab/internal/tokens"
)

// Anthropic is the Anthropic Messages API: POST /v1/messages, streaming
// (SSE) or not, and POST /v1/messages/count_tokens.
type Anthropic struct{}

// Name implements API.
func (Anthropic) Name() string { return "anthropic-messages" }

// Match implements API.
func (Anthropic) Match(method, path string) bool {
	return method == http.MethodPost && (path == "/v1/messages" || path == "/v1/messages/count_tokens")
}

type anthropicBody struct {
	Model    string            `json:"model"`
	Stream   bool              `json:"stream"`
	System   json.RawMessage   `json:"system"`
	Messages []anthropicMsg    `json:"messages"`
	Tools    []json.RawMessage `json:"tools"`
}

type anthropicMsg struct {
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"`
}

type anthropicBlock struct {
	Type    string          `json:"type"`
	Text    string          `json:"text"`
	Name    string          `json:"name"`
	Input   json.RawMessage `json:"input"`
	Content json.RawMessage `json:"content"`
}

// Context implements API. The order is the order a model reads: tools,
// system, then the messages.
func (Anthropic) Context(body []byte) (Context, error) {
	var b anthropicBody
	if err := json.Unmarshal(body, &b); err != nil {
		return nil, fmt.Errorf("decoding messages request: %w", err)
	}
	var ctx Context
	for i, t := range b.Tools {
		var name struct {
			Name string `json:"name"`
		}
		_ = json.Unmarshal(t, &name)
		ctx = append(ctx, Segment{Kind: KindToolDefinition, Message: i, Path: fmt.Sprintf("tools[%d]", i), Name: name.Name, Text: string(t)})
	}
	ctx = appendContent(ctx, KindSystem, 0, "system", b.System)
	for i, m := range b.Messages {
		kind := KindUserTurn
		switch m.Role {
		case "system":
			kind = KindSystemMessage
		case "developer":
			kind = KindDeveloperMessage
		case "assistant":
			kind = KindAssistantTurn
		}
		n := len(ctx)
		ctx = appendContent(ctx, kind, i, fmt.Sprintf("messages[%d].content", i), m.Content)
		if kind == KindAssistantTurn && len(ctx) == n {
			// An assistant turn with nothing readable (thinking only)
			// still counts as a turn.
			ctx = append(ctx, Segment{Kind: kind, Message: i, Path: fmt.Sprintf("messages[%d]", i)})
		}
	}
	return ctx, nil
}

// appendContent appends the text of a content field: a string, or a list
// of blocks.
func appendContent(ctx Context, kind Kind, msg int, path string, raw json.RawMessage) Context {
	if len(raw) == 0 || string(raw) == "null" {
		return ctx
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return append(ctx, Segment{Kind: kind, Message: msg, Path: path, Text: s})
	}
	var blocks []anthropicBlock
	if json.Unmarshal(raw, &blocks) != nil {
		return append(ctx, Segment{Kind: kind, Message: msg, Path: path, Text: string(raw)})
	}
	for j, bl := range blocks {
		p := fmt.Sprintf("%s[%d]", path, j)
		switch bl.Type {
		case "text":
			ctx = append(ctx, Segment{Kind: kind, Message: msg, Path: p + ".text", Text: bl.Text})
		case "tool_use":
			ctx = append(ctx, Segment{Kind: kind, Message: msg, Path: p + ".input", Name: bl.Name, Text: string(bl.Input)})
		case "tool_result":
			ctx = appendContent(ctx, KindToolResult, msg, p+".content", bl.Content)
		}
	}
	return ctx
}

// Write implements API.
func (Anthropic) Write(w http.ResponseWriter, path string, body []byte, reply Reply) error {
	if strings.HasSuffix(path, "/count_tokens") {
		w.Header().Set("Content-Type", "application/json")
		return json.NewEncoder(w).Encode(map[string]int{"input_tokens": reply.InputTokens})
	}
	var b struct {
		Model  string `json:"model"`
		Stream bool   `json:"stream"`
	}
	_ = json.Unmarshal(body, &b)
	if b.Model == "" {
		b.Model = "fake-model"
	}
	id := "msg_fake" + strings.TrimPrefix(reply.ToolID, "toolu_fake")
	if id == "msg_fake" {
		id = "msg_fake0000"
	}
	outTokens := tokens.Count(reply.Text) + tokens.Count(string(reply.Input))
	usage := map[string]int{"input_tokens": reply.InputTokens, "output_tokens": outTokens,
		"cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}
	block := map[string]any{"type": "text", "text": reply.Text}
	stop := "end_turn"
	if reply.Tool != "" {
		block = map[string]any{"type": "tool_use", "id": reply.ToolID, "name": reply.Tool, "input": reply.Input}
		stop = "tool_use"
	}
	if !b.Stream {
		w.Header().Set("Content-Type", "application/json")
		return json.NewEncoder(w).Encode(map[string]any{
			"id": id, "type": "message", "role": "assistant", "model": b.Model,
			"content": []any{block}, "stop_reason": stop, "stop_sequence": nil, "usage": usage,
		})
	}
	sse := newSSE(w)
	sse.event("message_start", map[string]any{"type": "message_start", "message": map[string]any{
		"id": id, "type": "message", "role": "assistant", "model": b.Model, "content": []any{},
		"stop_reason": nil, "stop_sequence": nil, "usage": map[string]int{"input_tokens": reply.InputTokens, "output_tokens": 1,
			"cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}}})
	if reply.Tool != "" {
		sse.event("content_block_start", map[string]any{"type": "content_block_start", "index": 0,
			"content_block": map[string]any{"type": "tool_use", "id": reply.ToolID, "name": reply.Tool, "input": map[string]any{}}})
		sse.event("content_block_delta", map[string]any{"type": "content_block_delta", "index": 0,
			"delta": map[string]any{"type": "input_json_delta", "partial_json": string(reply.Input)}})
	} else {
		sse.event("content_block_start", map[string]any{"type": "content_block_start", "index": 0,
			"content_block": map[string]any{"type": "text", "text": ""}})
		sse.event("content_block_delta", map[string]any{"type": "content_block_delta", "index": 0,
			"delta": map[string]any{"type": "text_delta", "text": reply.Text}})
	}
	sse.event("content_block_stop", map[string]any{"type": "content_block_stop", "index": 0})
	sse.event("message_delta", map[string]any{"type": "message_delta",
		"delta": map[string]any{"stop_reason": stop, "stop_sequence": nil}, "usage": map[string]int{"output_tokens": outTokens}})
	sse.event("message_stop", map[string]any{"type": "message_stop"})
	return sse.err
}
