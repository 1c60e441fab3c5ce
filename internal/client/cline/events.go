package cline

import (
	"io"

	"github.com/instrlab/instrlab/internal/jsonl"
)

// Events is what "cline --json" printed: one JSON object a line. 3.x
// prints run events (run_start, agent_event, run_result); 2.x prints the
// core's messages (type say or ask, with modelInfo) and, on failure, an
// error line.
type Events struct {
	// Provider and Model are those of the run_start event, then of the
	// run_result's model.
	Provider, Model string
	// Answer is the text of a run_result that finished without error
	// (3.x), or of the last completion_result, else the last text, the
	// core said (2.x).
	Answer string
	// Finish is the run_result's finishReason.
	Finish string
	// Error is the message of an error event, or of an agent_event of type
	// error, or the text of a run_result that finished with "error".
	Error string
	Count int
	// completed is set once a completion_result was read (2.x).
	completed bool
}

type event struct {
	Type         string `json:"type"`
	ProviderID   string `json:"providerId"`
	ModelID      string `json:"modelId"`
	FinishReason string `json:"finishReason"`
	Text         string `json:"text"`
	Message      string `json:"message"`
	Say          string `json:"say"`
	Ask          string `json:"ask"`
	Partial      bool   `json:"partial"`
	ModelInfo    *struct {
		ProviderID string `json:"providerId"`
		ModelID    string `json:"modelId"`
	} `json:"modelInfo"`
	Model *struct {
		ID       string `json:"id"`
		Provider string `json:"provider"`
	} `json:"model"`
	Event *struct {
		Type  string `json:"type"`
		Error *struct {
			Message string `json:"message"`
		} `json:"error"`
	} `json:"event"`
}

// ParseEvents reads the JSON Lines on stdout. A line that is not a JSON
// object is a warning "name:line: message".
func ParseEvents(r io.Reader, name string) (Events, []string) {
	var ev Events
	count, w := jsonl.Each(r, name, func(_ int, e event) {
		switch e.Type {
		case "run_start":
			ev.Provider, ev.Model = e.ProviderID, e.ModelID
		case "run_result":
			ev.Finish = e.FinishReason
			if e.Model != nil && e.Model.ID != "" {
				ev.Provider, ev.Model = e.Model.Provider, e.Model.ID
			}
			if e.FinishReason == "error" {
				if ev.Error == "" {
					ev.Error = e.Text
				}
			} else {
				ev.Answer = e.Text
			}
		case "error":
			ev.Error = e.Message
		case "say", "ask":
			ev.message(e)
		case "agent_event":
			if e.Event != nil && e.Event.Type == "error" && e.Event.Error != nil {
				ev.Error = e.Event.Error.Message
			}
		}
	})
	ev.Count = count
	return ev, w
}

// message reads one of the core's messages (2.x).
func (ev *Events) message(e event) {
	if e.ModelInfo != nil && e.ModelInfo.ModelID != "" {
		ev.Provider, ev.Model = e.ModelInfo.ProviderID, e.ModelInfo.ModelID
	}
	if e.Partial {
		return
	}
	switch e.Say + e.Ask {
	case "completion_result":
		ev.Answer, ev.completed = e.Text, true
	case "text":
		if !ev.completed && e.Type == "say" {
			ev.Answer = e.Text
		}
	case "error", "api_req_failed":
		ev.Error = e.Text
	}
}
