package fakeapi

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
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
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	Content   json.RawMessage `json:"content"`
	ToolUseID string          `json:"tool_use_id"`
	IsError   bool            `json:"is_error"`
	Source    struct {
		Type      string `json:"type"`
		MediaType string `json:"media_type"`
		Data      string `json:"data"`
		URL       string `json:"url"`
	} `json:"source"`
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
			n := len(ctx)
			ctx = appendContent(ctx, KindToolResult, msg, p+".content", bl.Content)
			if len(ctx) == n {
				ctx = append(ctx, Segment{Kind: KindToolResult, Message: msg, Path: p + ".content"})
			}
			for k := n; k < len(ctx); k++ {
				ctx[k].Call, ctx[k].Error = bl.ToolUseID, bl.IsError
			}
		case "image", "document":
			if bl.Source.Type == "text" { // a plain-text document: text the model reads
				ctx = append(ctx, Segment{Kind: kind, Message: msg, Path: p + ".source.data", Text: bl.Source.Data})
				continue
			}
			data := bl.Source.Data
			if data == "" {
				data = bl.Source.URL
			}
			media := bl.Source.MediaType
			if media == "" {
				media = bl.Type
			}
			ctx = append(ctx, Segment{Kind: kind, Message: msg, Path: p + ".source", Media: media, Data: data})
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
	id := "msg_fake" + reply.num()
	outTokens := reply.outputTokens(reply.Text)
	usage := map[string]int{"input_tokens": reply.InputTokens, "output_tokens": outTokens,
		"cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}
	blocks := []any{map[string]any{"type": "text", "text": reply.Text}}
	stop := "end_turn"
	if len(reply.Calls) > 0 {
		blocks, stop = nil, "tool_use"
		for _, c := range reply.Calls {
			blocks = append(blocks, map[string]any{"type": "tool_use", "id": c.ID, "name": c.Name, "input": c.Input})
		}
	}
	if !b.Stream {
		w.Header().Set("Content-Type", "application/json")
		return json.NewEncoder(w).Encode(map[string]any{
			"id": id, "type": "message", "role": "assistant", "model": b.Model,
			"content": blocks, "stop_reason": stop, "stop_sequence": nil, "usage": usage,
		})
	}
	sse := newSSE(w)
	sse.event("message_start", map[string]any{"type": "message_start", "message": map[string]any{
		"id": id, "type": "message", "role": "assistant", "model": b.Model, "content": []any{},
		"stop_reason": nil, "stop_sequence": nil, "usage": map[string]int{"input_tokens": reply.InputTokens, "output_tokens": 1,
			"cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}}})
	for i, c := range reply.Calls {
		sse.event("content_block_start", map[string]any{"type": "content_block_start", "index": i,
			"content_block": map[string]any{"type": "tool_use", "id": c.ID, "name": c.Name, "input": map[string]any{}}})
		sse.event("content_block_delta", map[string]any{"type": "content_block_delta", "index": i,
			"delta": map[string]any{"type": "input_json_delta", "partial_json": string(c.Input)}})
		sse.event("content_block_stop", map[string]any{"type": "content_block_stop", "index": i})
	}
	if len(reply.Calls) == 0 {
		sse.event("content_block_start", map[string]any{"type": "content_block_start", "index": 0,
			"content_block": map[string]any{"type": "text", "text": ""}})
		sse.event("content_block_delta", map[string]any{"type": "content_block_delta", "index": 0,
			"delta": map[string]any{"type": "text_delta", "text": reply.Text}})
		sse.event("content_block_stop", map[string]any{"type": "content_block_stop", "index": 0})
	}
	sse.event("message_delta", map[string]any{"type": "message_delta",
		"delta": map[string]any{"stop_reason": stop, "stop_sequence": nil}, "usage": map[string]int{"output_tokens": outTokens}})
	sse.event("message_stop", map[string]any{"type": "message_stop"})
	return sse.err
}
