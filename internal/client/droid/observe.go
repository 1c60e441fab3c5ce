package droid

import (
	"io"

	"github.com/instrlab/instrlab/internal/client"
	"github.com/instrlab/instrlab/internal/evidence"
)

// Observe implements client.Client.
func (d *Droid) Observe(e client.Evidence) client.Observation {
	return Observe(e.Dir)
}

// Observe reads the evidence of a Droid run kept under dir: the
// stream-json events on stdout (model, answer, errors). Droid names no MCP
// server in them, so the server status stays empty; the lab's own log says
// what the client did with the server.
func Observe(dir string) client.Observation {
	var o client.Observation
	o.Read(dir, evidence.StdoutFile, func(f io.Reader, name string) []string {
		ev, w := ParseEvents(f, name)
		o.Model, o.Answer, o.ResultError = ev.Model, ev.Answer, ev.Error
		if ev.Count == 0 {
			w = append(w, name+": no JSON events")
		}
		return w
	})
	return o
}
