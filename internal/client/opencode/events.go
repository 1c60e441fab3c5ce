package opencode

import (
	"encoding/json"
	"io"

	"github.com/instrlab/instrlab/internal/jsonl"
)

// Events is what "opencode run --format json" printed.
type Events struct {
	SessionID string
	// Answer is the text of the last step that had text.
	Answer string
	// Error is the message of an error event.
	Error string
	// Finish lists the reasons of the step_finish events.
	Finish []string
	// Tools lists the tools of tool_use events.
	Tools []string
	Count int
}

type event struct {
	Type      string          `json:"type"`
	SessionID string          `json:"sessionID"`
	Error     json.RawMessage `json:"error"`
	Part      *struct {
		Type   string `json:"type"`
		Text   string `json:"text"`
		Reason string `json:"reason"`
		Tool   string `json:"tool"`
	} `json:"part"`
}

// ParseEvents reads the JSON events on stdout. A line that is not a JSON
// object is a warning "name:line: message".
func ParseEvents(r io.Reader, name string) (Events, []string) {
	var ev Events
	newStep := true
	count, w := jsonl.Each(r, name, func(_ int, e event) {
		if ev.SessionID == "" {
			ev.SessionID = e.SessionID
		}
		switch e.Type {
		case "step_start":
			newStep = true
		case "text":
			if e.Part == nil {
				return
			}
			if newStep {
				ev.Answer, newStep = "", false
			}
			ev.Answer += e.Part.Text
		case "step_finish":
			if e.Part != nil {
				ev.Finish = append(ev.Finish, e.Part.Reason)
			}
		case "tool_use":
			if e.Part != nil {
				ev.Tools = append(ev.Tools, e.Part.Tool)
			}
		case "error":
			ev.Error = errorText(e.Error)
		}
	})
	ev.Count = count
	return ev, w
}

// errorText is an error's message (at .message or .data.message), else the
// raw JSON.
func errorText(raw json.RawMessage) string {
	var e struct {
		Name    string `json:"name"`
		Message string `json:"message"`
		Data    struct {
			Message string `json:"message"`
		} `json:"data"`
	}
	if json.Unmarshal(raw, &e) == nil {
		switch {
		case e.Data.Message != "":
			return e.Data.Message
		case e.Message != "":
			return e.Message
		}
	}
	if len(raw) == 0 {
		return "error"
	}
	return string(raw)
}
