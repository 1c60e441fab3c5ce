package codex

import (
	"io"

	"github.com/instrlab/instrlab/internal/jsonl"
)

// Events is what the JSON event stream of "codex exec --json" says.
type Events struct {
	ThreadID string
	// Answer is the text of the last agent_message item.
	Answer string
	// Failed holds the message of a turn.failed or error event.
	Failed string
	// MCPCalls lists the tools of mcp_tool_call items, as server.tool.
	MCPCalls []string
	// InputTokens is the usage of the last turn.completed event.
	InputTokens int
	Count       int
}

type event struct {
	Type     string `json:"type"`
	ThreadID string `json:"thread_id"`
	Message  string `json:"message"`
	Error    *struct {
		Message string `json:"message"`
	} `json:"error"`
	Item *struct {
		Type   string `json:"type"`
		Text   string `json:"text"`
		Server string `json:"server"`
		Tool   string `json:"tool"`
	} `json:"item"`
	Usage *struct {
		InputTokens int `json:"input_tokens"`
	} `json:"usage"`
}

// ParseEvents reads the JSON Lines on stdout. A line that is not a JSON
// object is a warning "name:line: message".
func ParseEvents(r io.Reader, name string) (Events, []string) {
	var ev Events
	count, w := jsonl.Each(r, name, func(_ int, e event) {
		switch e.Type {
		case "thread.started":
			ev.ThreadID = e.ThreadID
		case "item.completed":
			if e.Item == nil {
				return
			}
			switch e.Item.Type {
			case "agent_message":
				ev.Answer = e.Item.Text
			case "mcp_tool_call":
				ev.MCPCalls = append(ev.MCPCalls, e.Item.Server+"."+e.Item.Tool)
			}
		case "turn.completed":
			if e.Usage != nil {
				ev.InputTokens = e.Usage.InputTokens
			}
		case "turn.failed":
			if e.Error != nil {
				ev.Failed = e.Error.Message
			}
		case "error":
			ev.Failed = e.Message
		}
	})
	ev.Count = count
	return ev, w
}
