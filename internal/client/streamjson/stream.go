package streamjson

import (
	"io"

	"github.com/instrlab/instrlab/internal/jsonl"
)

// A Stream is what stream-json output says (claude -p, qwen).
type Stream struct {
	SessionID string
	Version   string // claude_code_version of the init event
	Model     string // model of the init event
	// Servers holds mcp_servers of the first init event, by name.
	Servers map[string]string
	// Result is the final result event's text; IsError and Subtype come
	// from the same event.
	Result  string
	IsError bool
	Subtype string
	CostUSD *float64
	// Events counts the events read.
	Events int
}

type streamEvent struct {
	Type       string   `json:"type"`
	Subtype    string   `json:"subtype"`
	SessionID  string   `json:"session_id"`
	Model      string   `json:"model"`
	Version    string   `json:"claude_code_version"`
	Result     string   `json:"result"`
	IsError    bool     `json:"is_error"`
	CostUSD    *float64 `json:"total_cost_usd"`
	MCPServers []struct {
		Name   string `json:"name"`
		Status string `json:"status"`
	} `json:"mcp_servers"`
}

// Parse reads stream-json output. A line that is not a JSON object is
// reported as "name:line: message" and skipped.
func Parse(r io.Reader, name string) (Stream, []string) {
	var s Stream
	count, w := jsonl.Each(r, name, func(_ int, e streamEvent) {
		if e.SessionID != "" && s.SessionID == "" {
			s.SessionID = e.SessionID
		}
		switch e.Type {
		case "system":
			if e.Subtype != "init" || s.Servers != nil {
				return
			}
			s.Servers = map[string]string{}
			for _, m := range e.MCPServers {
				s.Servers[m.Name] = m.Status
			}
			s.Model, s.Version = e.Model, e.Version
		case "result":
			s.Result, s.IsError, s.Subtype, s.CostUSD = e.Result, e.IsError, e.Subtype, e.CostUSD
		}
	})
	s.Events = count
	return s, w
}
