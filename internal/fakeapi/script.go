package fakeapi

import (
	"encoding/json"
	"fmt"
)

// A Turn is one scripted reply. A turn with a Tool asks the client to call
// that tool with Input; a turn without one answers as the reader.
type Turn struct {
	Tool  string          `json:"tool,omitempty"`
	Input json.RawMessage `json:"input,omitempty"`
}

// A Reply is what a fake sends back for one request.
type Reply struct {
	Text        string // the reader's line, when not a tool call
	Tool        string
	ToolID      string
	Input       json.RawMessage
	InputTokens int
}

// Describe summarises the reply for the request record.
func (r Reply) Describe() string {
	if r.Tool != "" {
		return fmt.Sprintf("tool_use %s %s", r.Tool, r.Input)
	}
	return r.Text
}

// plan picks the reply for a request whose context is ctx. The turn is the
// number of assistant messages already in the context; a scripted tool call
// is made only when the request offers that tool, so side requests without
// tools (titles, classifiers) get the reader's answer.
func plan(script []Turn, ctx Context, prompt string, seq int) Reply {
	turn := assistantTurns(ctx)
	if turn < len(script) && script[turn].Tool != "" && offers(ctx, script[turn].Tool) {
		in := script[turn].Input
		if len(in) == 0 {
			in = json.RawMessage("{}")
		}
		return Reply{Tool: script[turn].Tool, ToolID: fmt.Sprintf("toolu_fake%04d", seq), Input: in}
	}
	return Reply{Text: Read(ctx, prompt).Line()}
}

func assistantTurns(ctx Context) int {
	seen := map[int]bool{}
	for _, s := range ctx {
		if s.Kind == KindAssistantTurn {
			seen[s.Message] = true
		}
	}
	return len(seen)
}

func offers(ctx Context, tool string) bool {
	for _, s := range ctx {
		if s.Kind == KindToolDefinition && s.Name == tool {
			return true
		}
	}
	return false
}
