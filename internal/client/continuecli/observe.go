package continuecli

import (
	"io"
	"path/filepath"
	"sort"

	"github.com/instrlab/instrlab/internal/client"
	"github.com/instrlab/instrlab/internal/evidence"
)

// Observe implements client.Client.
func (c *Continue) Observe(e client.Evidence) client.Observation {
	return Observe(e.Dir, e.Primary())
}

// Observe reads the evidence of a Continue CLI run kept under dir: stdout
// (the answer), stderr (the run's error), the saved session (the model and the
// answer as the client kept them) and the log, which names a server it
// could not connect to. It logs nothing when a server connects, so the
// status is "failed" or empty.
func Observe(dir, server string) client.Observation {
	var o client.Observation
	o.Read(dir, evidence.StdoutFile, func(f io.Reader, name string) []string {
		var w []string
		o.Answer, w = ParseStdout(f, name)
		return w
	})
	o.Read(dir, evidence.StderrFile, func(f io.Reader, name string) []string {
		var w []string
		o.ResultError, w = ParseStderr(f, name)
		return w
	})
	d := evidence.RunDir(dir)
	sessions, _ := filepath.Glob(d.Home(filepath.FromSlash(SessionDir), "*-*.json"))
	sort.Strings(sessions)
	for _, p := range sessions {
		o.Read(dir, d.Rel(p), func(f io.Reader, name string) []string {
			s, w := ParseSession(f, name)
			if s.Model != "" {
				o.Model = s.Model
			}
			return w
		})
	}
	o.Read(dir, d.Rel(d.Home(filepath.FromSlash(LogFile))), func(f io.Reader, name string) []string {
		l, w := ParseLog(f, name)
		if o.Model == "" {
			o.Model = l.Model
		}
		if _, ok := l.Failed[server]; ok {
			o.ServerStatus = "failed"
		}
		return append(w, l.Problems...)
	})
	return o
}
