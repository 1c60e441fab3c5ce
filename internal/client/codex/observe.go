package codex

import (
	"fmt"
	"io"

	"github.com/instrlab/instrlab/internal/client"
	"github.com/instrlab/instrlab/internal/evidence"
)

// Observe implements client.Client.
func (c *Codex) Observe(r *client.Run) client.Observation {
	return Observe(r.Dir, r.Primary().Name)
}

// Observe reads the evidence of a Codex run kept under dir: the JSON
// events on stdout and the tracing log on stderr. Codex reports no status
// per MCP server; the status given is "connected (N tools)" when its log
// shows the tool catalog of a configured server (the run configures only
// the lab), else "no catalog in log".
func Observe(dir, server string) client.Observation {
	var o client.Observation
	o.Read(dir, evidence.StdoutFile, func(f io.Reader, name string) []string {
		ev, w := ParseEvents(f, name)
		o.Answer, o.ResultError = ev.Answer, ev.Failed
		if ev.Count == 0 {
			w = append(w, name+": no JSON events")
		}
		return w
	})
	o.Read(dir, evidence.StderrFile, func(f io.Reader, name string) []string {
		l, w := ParseLog(f, name)
		o.ServerStatus = "no catalog in log"
		if n := len(l.Catalogs); n > 0 {
			o.ServerStatus = fmt.Sprintf("connected (%d tools)", l.Catalogs[n-1].Tools)
		}
		return append(w, l.Problems...)
	})
	return o
}
