package fakeapi

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/instrlab/instrlab/internal/tokens"
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
		Type     string          `json:"type"`
		Text     *string         `json:"text"`
		Refusal  *string         `json:"refusal"`
		ImageURL json.RawMessage `json:"image_url"` // Chat: {"url": ...}; Responses: the URL
		FileData string          `json:"file_data"`
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
		case len(p.ImageURL) > 0:
			var url string
			if json.Unmarshal(p.ImageURL, &url) != nil {
				var obj struct {
					URL string `json:"url"`
				}
				json.Unmarshal(p.ImageURL, &obj)
				url = obj.URL
			}
			ctx = append(ctx, Segment{Kind: kind, Message: msg, Path: fmt.Sprintf("%s[%d].image_url", path, j), Media: dataURLMedia(url, "image"), Data: url})
		case p.FileData != "":
			ctx = append(ctx, Segment{Kind: kind, Message: msg, Path: fmt.Sprintf("%s[%d].file_data", path, j), Media: dataURLMedia(p.FileData, "file"), Data: p.FileData})
		}
	}
	return ctx
}

// dataURLMedia is the MIME type of a data: URL, else def.
func dataURLMedia(url, def string) string {
	if rest, ok := strings.CutPrefix(url, "data:"); ok {
		if media, _, ok := strings.Cut(rest, ";"); ok && media != "" {
			return media
		}
	}
	return def
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

// outputTokens counts the reply's output: text, the text it sends (the
// reader's line or a value fitting a schema), and the calls' inputs.
func (r Reply) outputTokens(text string) int {
	n := tokens.Count(text)
	for _, c := range r.Calls {
		n += tokens.Count(string(c.Input))
	}
	return n
}

// suffix is what makes ids of the call unique in every API shape (the
// request's number and the call's), as in 0012 or 0012c1.
func (c ToolCall) suffix() string { return strings.TrimPrefix(c.ID, "toolu_fake") }

// wireID is the call's id as the OpenAI shapes send it (a tool call's id,
// a function_call's call_id); Anthropic's is ID itself.
func (c ToolCall) wireID() string { return "call_fake" + c.suffix() }

// Answers reports whether a tool result's call id, as a client sent it
// back, is this call's id in any API shape (ID, or the OpenAI shapes'
// call_fake id).
func (c ToolCall) Answers(id string) bool { return id != "" && (id == c.ID || id == c.wireID()) }
