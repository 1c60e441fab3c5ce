package fakeapi

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"
)

// OpenAIResponses is the OpenAI Responses API: POST /v1/responses,
// streaming (SSE) or not. Codex CLI speaks it.
type OpenAIResponses struct{}

// Name implements API.
func (OpenAIResponses) Name() string { return "openai-responses" }

// Match implements API.
func (OpenAIResponses) Match(method, path string) bool {
	return method == http.MethodPost && strings.HasSuffix(path, "/responses")
}

type responsesBody struct {
	Instructions json.RawMessage   `json:"instructions"`
	Input        json.RawMessage   `json:"input"`
	Tools        []json.RawMessage `json:"tools"`
}

type responsesItem struct {
	Type      string          `json:"type"`
	Role      string          `json:"role"`
	Content   json.RawMessage `json:"content"`
	Name      string          `json:"name"`
	Arguments string          `json:"arguments"`
	Input     json.RawMessage `json:"input"`
	Action    json.RawMessage `json:"action"`
	Output    json.RawMessage `json:"output"`
	CallID    string          `json:"call_id"`
	Namespace string          `json:"namespace"`
	// Tools are the definitions of an additional_tools item (Codex sends
	// its tools that way, grouped in namespaces).
	Tools []json.RawMessage `json:"tools"`
}

// Context implements API. The order is tools, instructions (the top-level
// system text), then the input items: messages by role (system, developer,
// user, assistant), tool definitions of additional_tools items, tool calls
// as assistant turns, tool outputs as tool results. Reasoning items carry
// nothing readable and are skipped.
func (OpenAIResponses) Context(body []byte) (Context, error) {
	var b responsesBody
	if err := json.Unmarshal(body, &b); err != nil {
		return nil, fmt.Errorf("decoding responses request: %w", err)
	}
	ctx := appendTools(nil, "tools", -1, "", b.Tools)
	ctx = appendParts(ctx, KindSystem, 0, "instructions", b.Instructions)
	var s string
	if json.Unmarshal(b.Input, &s) == nil {
		return append(ctx, Segment{Kind: KindUserTurn, Path: "input", Text: s}), nil
	}
	var items []responsesItem
	if len(b.Input) > 0 && string(b.Input) != "null" {
		if err := json.Unmarshal(b.Input, &items); err != nil {
			return nil, fmt.Errorf("decoding responses input: %w", err)
		}
	}
	for i, it := range items {
		p := fmt.Sprintf("input[%d]", i)
		switch it.Type {
		case "", "message":
			ctx = appendParts(ctx, roleKind(it.Role), i, p+".content", it.Content)
		case "function_call":
			ctx = append(ctx, Segment{Kind: KindAssistantTurn, Message: i, Path: p + ".arguments", Name: it.Name, Namespace: it.Namespace, Text: it.Arguments})
		case "custom_tool_call":
			n := len(ctx)
			ctx = appendParts(ctx, KindAssistantTurn, i, p+".input", it.Input)
			for k := n; k < len(ctx); k++ {
				ctx[k].Name = it.Name
			}
		case "local_shell_call":
			ctx = append(ctx, Segment{Kind: KindAssistantTurn, Message: i, Path: p + ".action", Name: "local_shell", Text: string(it.Action)})
		case "function_call_output", "custom_tool_call_output", "local_shell_call_output", "mcp_call_output":
			n := len(ctx)
			ctx = appendParts(ctx, KindToolResult, i, p+".output", it.Output)
			if len(ctx) == n {
				ctx = append(ctx, Segment{Kind: KindToolResult, Message: i, Path: p + ".output"})
			}
			for k := n; k < len(ctx); k++ {
				ctx[k].Call = it.CallID
			}
		case "additional_tools":
			ctx = appendTools(ctx, p+".tools", i, "", it.Tools)
		case "reasoning":
		default:
			ctx = appendParts(ctx, roleKind(it.Role), i, p+".content", it.Content)
		}
	}
	return ctx, nil
}

// Write implements API. A reply is one message item, or one function_call
// item when the script calls a tool; a request that asks for a JSON schema
// (text.format) gets a value fitting it.
func (OpenAIResponses) Write(w http.ResponseWriter, path string, body []byte, reply Reply) error {
	var b struct {
		Model  string `json:"model"`
		Stream bool   `json:"stream"`
		Text   struct {
			Format struct {
				Type   string          `json:"type"`
				Schema json.RawMessage `json:"schema"`
			} `json:"format"`
		} `json:"text"`
	}
	_ = json.Unmarshal(body, &b)
	if b.Model == "" {
		b.Model = "fake-model"
	}
	text := reply.Text
	if b.Text.Format.Type == "json_schema" && len(b.Text.Format.Schema) > 0 && len(reply.Calls) == 0 {
		text = string(fitSchema(b.Text.Format.Schema, reply.Text))
	}
	n := reply.num()
	id := "resp_fake" + n
	var items []map[string]any
	for _, c := range reply.Calls {
		item := map[string]any{"id": "fc_fake" + c.suffix(), "type": "function_call", "status": "completed",
			"call_id": c.wireID(), "name": c.Name, "arguments": string(c.Input)}
		if c.Namespace != "" {
			item["namespace"] = c.Namespace // the tool's namespace, as offered
		}
		items = append(items, item)
	}
	if len(items) == 0 {
		items = append(items, map[string]any{"id": "msg_fake" + n, "type": "message", "status": "completed", "role": "assistant",
			"content": []any{map[string]any{"type": "output_text", "text": text, "annotations": []any{}}}})
	}
	output := make([]any, len(items))
	for i, it := range items {
		output[i] = it
	}
	outTokens := reply.outputTokens(text)
	usage := map[string]any{"input_tokens": reply.InputTokens, "input_tokens_details": map[string]int{"cached_tokens": 0},
		"output_tokens": outTokens, "output_tokens_details": map[string]int{"reasoning_tokens": 0},
		"total_tokens": reply.InputTokens + outTokens}
	created := time.Now().Unix()
	response := func(status string, output []any, usage any) map[string]any {
		return map[string]any{"id": id, "object": "response", "created_at": created, "status": status,
			"model": b.Model, "output": output, "usage": usage}
	}
	if !b.Stream {
		w.Header().Set("Content-Type", "application/json")
		return json.NewEncoder(w).Encode(response("completed", output, usage))
	}
	sse := newSSE(w)
	seq := 0
	ev := func(typ string, fields map[string]any) {
		fields["type"] = typ
		fields["sequence_number"] = seq
		seq++
		sse.event(typ, fields)
	}
	ev("response.created", map[string]any{"response": response("in_progress", []any{}, nil)})
	ev("response.in_progress", map[string]any{"response": response("in_progress", []any{}, nil)})
	for i, item := range items {
		started := map[string]any{}
		for k, v := range item {
			started[k] = v
		}
		started["status"] = "in_progress"
		if item["type"] == "function_call" {
			args := item["arguments"]
			started["arguments"] = ""
			ev("response.output_item.added", map[string]any{"output_index": i, "item": started})
			ev("response.function_call_arguments.delta", map[string]any{"item_id": item["id"], "output_index": i, "delta": args})
			ev("response.function_call_arguments.done", map[string]any{"item_id": item["id"], "output_index": i, "arguments": args})
		} else {
			started["content"] = []any{}
			ev("response.output_item.added", map[string]any{"output_index": i, "item": started})
			part := map[string]any{"type": "output_text", "text": "", "annotations": []any{}}
			ev("response.content_part.added", map[string]any{"item_id": item["id"], "output_index": i, "content_index": 0, "part": part})
			ev("response.output_text.delta", map[string]any{"item_id": item["id"], "output_index": i, "content_index": 0, "delta": text})
			ev("response.output_text.done", map[string]any{"item_id": item["id"], "output_index": i, "content_index": 0, "text": text})
			part = map[string]any{"type": "output_text", "text": text, "annotations": []any{}}
			ev("response.content_part.done", map[string]any{"item_id": item["id"], "output_index": i, "content_index": 0, "part": part})
		}
		ev("response.output_item.done", map[string]any{"output_index": i, "item": item})
	}
	ev("response.completed", map[string]any{"response": response("completed", output, usage)})
	return sse.err
}

// appendTools appends one tool definition segment per tool; a namespace
// (type "namespace" with its own tools) is opened, so each of its tools is
// one segment with the namespace's name, and its own description, when
// not empty, is one more. The segments' Message is msg, the input item
// they came in, or their own index among the segments when msg is -1 (the
// top-level tools); namespace is the namespace tools are in, if any.
func appendTools(ctx Context, path string, msg int, namespace string, tools []json.RawMessage) Context {
	for i, t := range tools {
		m := msg
		if m < 0 {
			m = len(ctx)
		}
		p := fmt.Sprintf("%s[%d]", path, i)
		var ns struct {
			Type        string            `json:"type"`
			Description string            `json:"description"`
			Tools       []json.RawMessage `json:"tools"`
		}
		if json.Unmarshal(t, &ns) == nil && ns.Type == "namespace" {
			if ns.Description != "" {
				ctx = append(ctx, Segment{Kind: KindToolDefinition, Message: m, Path: p + ".description", Name: toolName(t), Text: ns.Description})
			}
			ctx = appendTools(ctx, p+".tools", msg, toolName(t), ns.Tools)
			continue
		}
		ctx = append(ctx, Segment{Kind: KindToolDefinition, Message: m, Path: p, Name: toolName(t), Namespace: namespace, Text: string(t)})
	}
	return ctx
}
