package copilot

import (
	"io"
	"path/filepath"
	"regexp"
	"sort"
	"sync"

	"github.com/instrlab/instrlab/internal/client"
	"github.com/instrlab/instrlab/internal/evidence"
	"github.com/instrlab/instrlab/internal/jsonl"
)

// Observe implements client.Client.
func (c *Copilot) Observe(e client.Evidence) client.Observation {
	return Observe(e.Dir, e.Primary())
}

// Observe reads the evidence of a Copilot CLI run kept under dir: the JSON
// Lines on stdout (the server's status as the client reports it, the model
// and the answer) and the process log under client/logs, whose WARNING and
// ERROR lines about MCP become warnings.
func Observe(dir, server string) client.Observation {
	var o client.Observation
	o.Read(dir, evidence.StdoutFile, func(f io.Reader, name string) []string {
		ev, w := ParseEvents(f, name)
		o.ServerStatus, o.Model, o.Answer, o.ResultError = ev.Servers[server], ev.Model, ev.Answer, ev.Error
		if ev.Count == 0 {
			w = append(w, name+": no JSON events")
		}
		return w
	})
	logs, _ := filepath.Glob(filepath.Join(dir, LogDir, "*.log"))
	sort.Strings(logs)
	for _, p := range logs {
		rel, _ := filepath.Rel(dir, p)
		o.Read(dir, rel, func(f io.Reader, name string) []string {
			return jsonl.Matching(f, name, problemRE())
		})
	}
	return o
}

var problemRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\[(WARNING|ERROR)\].*(?i:mcp)`) })
