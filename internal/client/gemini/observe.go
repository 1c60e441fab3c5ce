package gemini

import (
	"io"

	"github.com/instrlab/instrlab/internal/client"
	"github.com/instrlab/instrlab/internal/evidence"
)

// Observe implements client.Client.
func (g *Gemini) Observe(e client.Evidence) client.Observation {
	return Observe(e.Dir, e.Primary())
}

// Observe reads the evidence of a Gemini CLI run kept under dir: the
// stream-json events on stdout and the debug log on stderr. The server's
// status is "connected" when the debug log shows its notification handlers
// registered, "failed" when it reports an MCP error and no connection,
// else "not in log".
func Observe(dir, server string) client.Observation {
	var o client.Observation
	o.Read(dir, evidence.StdoutFile, func(f io.Reader, name string) []string {
		s, w := ParseStream(f, name)
		o.Answer, o.Model = s.Answer, s.Model
		if len(s.Models) > 0 {
			o.Model = s.Model + " → " + joinComma(s.Models)
		}
		if s.Status != "" && s.Status != "success" || s.Error != "" {
			o.ResultError = s.Status + " " + s.Error
		}
		if s.Events == 0 {
			w = append(w, name+": no stream-json events")
		}
		return w
	})
	o.Read(dir, evidence.StderrFile, func(f io.Reader, name string) []string {
		d, w := ParseDebug(f, name)
		_, ok := d.Connected[server]
		switch {
		case ok:
			o.ServerStatus = "connected"
		case len(d.Failures) > 0:
			o.ServerStatus = "failed"
		default:
			o.ServerStatus = "not in log"
		}
		return append(w, d.Failures...)
	})
	return o
}

func joinComma(s []string) string {
	out := ""
	for i, x := range s {
		if i > 0 {
			out += ", "
		}
		out += x
	}
	return out
}
