package grok

import (
	"encoding/json"
	"io"
	"strings"

	"github.com/instrlab/instrlab/internal/client"
	"github.com/instrlab/instrlab/internal/evidence"
	"github.com/instrlab/instrlab/internal/jsonl"
)

// A message is one line of Grok CLI's headless output: an OpenAI Chat
// Completions message of the turn.
type message struct {
	Role      string `json:"role"`
	Content   string `json:"content"`
	ToolCalls []struct {
		Function struct {
			Name string `json:"name"`
		} `json:"function"`
	} `json:"tool_calls"`
}

// errPrefix starts the one message Grok CLI prints when the turn fails.
const errPrefix = "Error: "

// Observe implements client.Client: the turn's messages on stdout. The
// answer is the last assistant message without a tool call; a failed turn
// is one assistant message "Error: …" (then Grok CLI exits 1). Grok CLI
// says nothing of its MCP servers, so the status stays empty.
func (g *Grok) Observe(e client.Evidence) client.Observation {
	var o client.Observation
	o.Read(e.Dir, evidence.StdoutFile, func(f io.Reader, name string) []string {
		// Its own lines ("✅ API key saved to …") are not messages: only
		// a line that starts as JSON is read as one.
		var msgs []message
		w := jsonl.Lines(f, name, func(_ int, line []byte) error {
			if line[0] != '{' {
				return nil
			}
			var m message
			if err := json.Unmarshal(line, &m); err != nil {
				return err
			}
			msgs = append(msgs, m)
			return nil
		})
		for _, m := range msgs {
			if m.Role != "assistant" || len(m.ToolCalls) > 0 {
				continue
			}
			o.Answer = m.Content
			if rest, ok := strings.CutPrefix(m.Content, errPrefix); ok && len(msgs) == 1 {
				o.Answer, o.ResultError = "", rest
			}
		}
		return w
	})
	return o
}
