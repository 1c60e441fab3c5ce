package droid

import (
	"io"

	"github.com/instrlab/instrlab/internal/jsonl"
)

// Events is what "droid exec -o stream-json" printed: one JSON object a
// line.
type Events struct {
	// Model is the init event's model, as "custom:fake-model-0".
	Model string
	// Answer is the text of the completion event, else of the last
	// assistant message.
	Answer string
	// Error is the message of the first error event.
	Error string
	Count int
}

type event struct {
	Type       string `json:"type"`
	Subtype    string `json:"subtype"`
	Model      string `json:"model"`
	Role       string `json:"role"`
	Text       string `json:"text"`
	Message    string `json:"message"`
	FinalText  string `json:"finalText"`
	Result     string `json:"result"`
	IsError    bool   `json:"is_error"`
	SourceName string `json:"source"`
}

// ParseEvents reads the JSON Lines on stdout. A line that is not a JSON
// object is a warning "name:line: message".
func ParseEvents(r io.Reader, name string) (Events, []string) {
	var ev Events
	var last string
	count, w := jsonl.Each(r, name, func(_ int, e event) {
		switch {
		case e.Type == "system" && e.Subtype == "init":
			ev.Model = e.Model
		case e.Type == "message" && e.Role == "assistant":
			last = e.Text
		case e.Type == "completion":
			ev.Answer = e.FinalText
		case e.Type == "error" && ev.Error == "":
			ev.Error = e.Message
		}
	})
	ev.Count = count
	if ev.Answer == "" {
		ev.Answer = last
	}
	return ev, w
}
