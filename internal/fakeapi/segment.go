package fakeapi

import (
	"strings"
	"unicode/utf8"
)

// A Kind names where in a request a piece of text sits, in one vocabulary
// shared by every API shape.
type Kind string

// The places a request can carry text.
const (
	KindSystem           Kind = "system"            // the top-level system prompt
	KindSystemMessage    Kind = "system-message"    // a role "system" message among the messages
	KindDeveloperMessage Kind = "developer-message" // a role "developer" message (OpenAI)
	KindUserTurn         Kind = "user-turn"         // text in a user message
	KindAssistantTurn    Kind = "assistant-turn"    // text or tool calls of an assistant message
	KindToolResult       Kind = "tool-result"       // the result of a tool call
	KindToolDefinition   Kind = "tool-definition"   // a tool offered to the model
)

// A Segment is one piece of text of a request, with where it sits.
type Segment struct {
	Kind Kind `json:"kind"`
	// Message is the index of the message (or tool) the text belongs to.
	Message int `json:"message"`
	// Path locates the text in the request body, as in messages[2].content[0].text.
	Path string `json:"path"`
	// Name is the tool's name, for tool definitions and tool calls.
	Name string `json:"name,omitempty"`
	// Namespace is the namespace a tool definition is in (the OpenAI
	// Responses API's namespace tools: Codex's mcp__SERVER), whose name a
	// call of the tool carries beside the tool's.
	Namespace string `json:"namespace,omitempty"`
	Text      string `json:"text"`
	// Call is the id of the tool call a tool result answers (or, where
	// the API has no ids, the tool's name), for tool results; for a tool
	// call of an assistant message in OpenAI Chat Completions, the call's
	// id as the client sent it back (Droid under a Gemini model gives its
	// own).
	Call string `json:"call,omitempty"`
	// Error marks a tool result the request flags as an error
	// (Anthropic's is_error).
	Error bool `json:"error,omitempty"`
	// Media and Data hold an image or file the model is given (its
	// MIME type, and its base64 data or URL); Text is then empty, since
	// the model does not read it as text.
	Media string `json:"media,omitempty"`
	Data  string `json:"data,omitempty"`
}

// Context is the text of a request that a model reads, decoded from its
// wire form: the segments in order.
type Context []Segment

// Chars is the number of characters (Unicode code points) of the context.
func (c Context) Chars() int {
	n := 0
	for _, s := range c {
		n += utf8.RuneCountInString(s.Text)
	}
	return n
}

// Text joins the segments' text with newlines.
func (c Context) Text() string {
	var b strings.Builder
	for i, s := range c {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(s.Text)
	}
	return b.String()
}
