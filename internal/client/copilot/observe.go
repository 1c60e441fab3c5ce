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
		o.Read(dir, rel, logProblems)
	}
	return o
}

// logProblems returns the WARNING and ERROR lines about MCP of a process
// log, as "name:line: text", but for the steps of a server's start that
// 1.0.11 logs at ERROR on every run (lifecycleRE).
func logProblems(f io.Reader, name string) []string {
	var out []string
	for _, w := range jsonl.Matching(f, name, problemRE()) {
		if !lifecycleRE().MatchString(w) {
			out = append(out, w)
		}
	}
	return out
}

var problemRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\[(WARNING|ERROR)\].*(?i:mcp)`) })

// lifecycleRE matches the lines of a server's start as 1.0.11 logs them
// (testdata/en-1000-1.0.11): starting, creating, connecting, connected,
// its instructions, started.
var lifecycleRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^[^:]*:\d+: \S+ \[ERROR\] (?:(?:Starting|Creating|Connecting|Started) MCP client for |MCP client for \S+ connected, took \d+ms$|MCP server \S+ provided (?:deferred )?instructions: )`)
})
