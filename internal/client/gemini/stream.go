package gemini

import (
	"encoding/json"
	"io"

	"github.com/instrlab/instrlab/internal/jsonl"
)

// A Stream is what "gemini -p --output-format stream-json" printed.
type Stream struct {
	SessionID string
	Model     string // of the init event ("auto" when routed)
	// Answer joins the assistant messages (deltas) of the last turn.
	Answer string
	// Status is the result event's status; Error its error message.
	Status, Error string
	// Models lists the models the result's stats name, in order.
	Models []string
	Events int
}

type streamEvent struct {
	Type      string `json:"type"`
	SessionID string `json:"session_id"`
	Model     string `json:"model"`
	Role      string `json:"role"`
	Content   string `json:"content"`
	Delta     bool   `json:"delta"`
	Status    string `json:"status"`
	Error     *struct {
		Message string `json:"message"`
	} `json:"error"`
	Stats *struct {
		Models map[string]json.RawMessage `json:"models"`
	} `json:"stats"`
}

// ParseStream reads the stream-json lines. A line that is not a JSON
// object is a warning "name:line: message".
func ParseStream(r io.Reader, name string) (Stream, []string) {
	var s Stream
	lastWasAssistant := false
	count, w := jsonl.Each(r, name, func(_ int, e streamEvent) {
		assistant := e.Type == "message" && e.Role == "assistant"
		switch {
		case e.Type == "init":
			s.SessionID, s.Model = e.SessionID, e.Model
		case assistant:
			if !lastWasAssistant {
				s.Answer = ""
			}
			s.Answer += e.Content
		case e.Type == "result":
			s.Status = e.Status
			if e.Error != nil {
				s.Error = e.Error.Message
			}
			if e.Stats != nil {
				s.Models = s.Models[:0]
				for m := range e.Stats.Models {
					s.Models = append(s.Models, m)
				}
				sortStrings(s.Models)
			}
		case e.Type == "error":
			s.Error = e.Content
		}
		if e.Type == "message" || e.Type == "tool_use" || e.Type == "tool_result" {
			lastWasAssistant = assistant
		}
	})
	s.Events = count
	return s, w
}
