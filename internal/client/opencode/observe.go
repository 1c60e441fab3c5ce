package opencode

import (
	"io"

	"github.com/instrlab/instrlab/internal/client"
	"github.com/instrlab/instrlab/internal/evidence"
)

// Observe implements client.Client.
func (c *Opencode) Observe(e client.Evidence) client.Observation {
	return Observe(e.Dir, e.Primary())
}

// Observe reads the evidence of an opencode run kept under dir: the JSON
// events on stdout and the log on stderr. opencode logs no line when an MCP
// server connects, only problems: the status is "failed" when its log has
// an MCP error or warning, else "no error in log".
func Observe(dir, server string) client.Observation {
	var o client.Observation
	o.Read(dir, evidence.StdoutFile, func(f io.Reader, name string) []string {
		ev, w := ParseEvents(f, name)
		o.Answer, o.ResultError = ev.Answer, ev.Error
		if ev.Count == 0 {
			w = append(w, name+": no JSON events")
		}
		return w
	})
	o.Read(dir, evidence.StderrFile, func(f io.Reader, name string) []string {
		l, w := ParseLog(f, name)
		o.ServerStatus = "no error in log"
		if len(l.Problems) > 0 {
			o.ServerStatus = "failed"
		}
		return append(w, l.Problems...)
	})
	return o
}
