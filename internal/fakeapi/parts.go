package fakeapi

import (
	"encoding/json"
	"fmt"
	"strings"
)

// appendParts appends the text of an OpenAI-style content field: a string,
// or a list of parts with a text field (text, input_text, output_text,
// refusal). Parts without text (images, files) are skipped; a value of any
// other shape is kept whole as raw JSON, so no text is lost to the reader.
func appendParts(ctx Context, kind Kind, msg int, path string, raw json.RawMessage) Context {
	if len(raw) == 0 || string(raw) == "null" {
		return ctx
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return append(ctx, Segment{Kind: kind, Message: msg, Path: path, Text: s})
	}
	var parts []struct {
		Type    string  `json:"type"`
		Text    *string `json:"text"`
		Refusal *string `json:"refusal"`
	}
	if json.Unmarshal(raw, &parts) != nil {
		return append(ctx, Segment{Kind: kind, Message: msg, Path: path, Text: string(raw)})
	}
	for j, p := range parts {
		switch {
		case p.Text != nil:
			ctx = append(ctx, Segment{Kind: kind, Message: msg, Path: fmt.Sprintf("%s[%d].text", path, j), Text: *p.Text})
		case p.Refusal != nil:
			ctx = append(ctx, Segment{Kind: kind, Message: msg, Path: fmt.Sprintf("%s[%d].refusal", path, j), Text: *p.Refusal})
		}
	}
	return ctx
}

// roleKind maps a chat role to the shared vocabulary. Roles it does not
// know are read as user turns: text the model reads in the conversation.
func roleKind(role string) Kind {
	switch role {
	case "system":
		return KindSystemMessage
	case "developer":
		return KindDeveloperMessage
	case "assistant", "model":
		return KindAssistantTurn
	case "tool", "function":
		return KindToolResult
	}
	return KindUserTurn
}

// toolName reads the name of a tool definition: its name, the name of its
// function (Chat Completions), or its type for built-in tools (web_search).
func toolName(raw json.RawMessage) string {
	var t struct {
		Name     string `json:"name"`
		Type     string `json:"type"`
		Function struct {
			Name string `json:"name"`
		} `json:"function"`
	}
	_ = json.Unmarshal(raw, &t)
	switch {
	case t.Name != "":
		return t.Name
	case t.Function.Name != "":
		return t.Function.Name
	}
	return t.Type
}

// replyNum is the number that makes a reply's ids unique: the request's
// sequence number for a scripted tool call (as in ToolID), else 0000.
func replyNum(r Reply) string {
	if n, ok := strings.CutPrefix(r.ToolID, "toolu_fake"); ok && n != "" {
		return n
	}
	return "0000"
}
