package copilot

import (
	"fmt"
	"io"

	"github.com/instrlab/instrlab/internal/jsonl"
)

// Events is what "copilot -p --output-format json" printed.
type Events struct {
	SessionID string
	// Servers holds each MCP server's last status
	// (session.mcp_server_status_changed, session.mcp_servers_loaded).
	Servers map[string]string
	// Received holds the instructions each server's metadata carried as the
	// client received them (session.mcp_servers_loaded): what it got, not
	// what it put in the model's context.
	Received map[string]string
	// Model is the model of the last assistant.message, or, when none
	// names one (1.0.11), of the last session.tools_updated.
	Model string
	// Answer is the content of the last assistant.message that had text.
	Answer string
	// Error is the message of the last session.error event, or the exit
	// code of a result event that is not 0.
	Error string
	// Count counts the events read.
	Count int
}

type event struct {
	Type      string `json:"type"`
	SessionID string `json:"sessionId"`
	ExitCode  *int   `json:"exitCode"`
	Data      *struct {
		ServerName string `json:"serverName"`
		Status     string `json:"status"`
		Servers    []struct {
			Name           string `json:"name"`
			Status         string `json:"status"`
			ServerMetadata *struct {
				Instructions *string `json:"instructions"`
			} `json:"serverMetadata"`
		} `json:"servers"`
		Model   string `json:"model"`
		Content string `json:"content"`
		Message string `json:"message"`
	} `json:"data"`
}

// ParseEvents reads the JSON Lines on stdout. A line that is not a JSON
// object is a warning "name:line: message".
func ParseEvents(r io.Reader, name string) (Events, []string) {
	ev := Events{Servers: map[string]string{}, Received: map[string]string{}}
	var toolsModel string
	count, w := jsonl.Each(r, name, func(_ int, e event) {
		if e.SessionID != "" && ev.SessionID == "" {
			ev.SessionID = e.SessionID
		}
		if e.Type == "result" {
			if e.ExitCode != nil && *e.ExitCode != 0 && ev.Error == "" {
				ev.Error = fmt.Sprintf("exit code %d", *e.ExitCode)
			}
			return
		}
		d := e.Data
		if d == nil {
			return
		}
		switch e.Type {
		case "session.mcp_server_status_changed":
			if d.ServerName != "" {
				ev.Servers[d.ServerName] = d.Status
			}
		case "session.mcp_servers_loaded":
			for _, s := range d.Servers {
				ev.Servers[s.Name] = s.Status
				if s.ServerMetadata != nil && s.ServerMetadata.Instructions != nil {
					ev.Received[s.Name] = *s.ServerMetadata.Instructions
				}
			}
		case "session.tools_updated":
			if d.Model != "" {
				toolsModel = d.Model
			}
		case "assistant.message":
			if d.Model != "" {
				ev.Model = d.Model
			}
			if d.Content != "" {
				ev.Answer = d.Content
			}
		case "session.error":
			ev.Error = d.Message
			if ev.Error == "" {
				ev.Error = "session.error"
			}
		}
	})
	ev.Count = count
	if ev.Model == "" {
		ev.Model = toolsModel
	}
	return ev, w
}
