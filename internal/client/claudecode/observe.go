package claudecode

import (
	"io"
	"path/filepath"
	"sort"

	"github.com/instrlab/instrlab/internal/client"
	"github.com/instrlab/instrlab/internal/client/streamjson"
	"github.com/instrlab/instrlab/internal/evidence"
)

// Observe implements client.Client. It reads the stream-json output, the
// debug log and every transcript under the run's HOME.
func (c *Claude) Observe(e client.Evidence) client.Observation {
	return Observe(e.Dir, e.Primary())
}

// Observe reads the evidence of a Claude Code run kept under dir, for the
// server named server. It is what report uses to rebuild a table.
func Observe(dir, server string) client.Observation {
	var o client.Observation
	streamjson.Read(&o, dir, evidence.StdoutFile, server)
	o.Read(dir, evidence.ClientDir+"/"+DebugFile, func(f io.Reader, name string) []string {
		d, w := ParseDebug(f, name)
		for _, t := range d.Truncations {
			if t.Server == server {
				o.Truncations = append(o.Truncations, t)
			}
		}
		o.Era, o.NegotiatedVersion = d.ProtocolEra[server], d.NegotiatedVersion[server]
		o.RuntimeArm, o.ArmSource = d.RuntimeArm, d.ArmSource
		return w
	})
	transcripts, _ := filepath.Glob(evidence.RunDir(dir).Home(projectsDir, "*", "*.jsonl"))
	sort.Strings(transcripts)
	if len(transcripts) == 0 {
		o.Warnings = append(o.Warnings, evidence.HomeRel(projectsDir)+": no transcript")
	}
	for _, p := range transcripts {
		rel, _ := filepath.Rel(dir, p)
		o.Read(dir, rel, func(f io.Reader, name string) []string {
			t, w := ParseTranscript(f, name)
			for _, b := range t.Instructions {
				if b.Server == server || b.Server == "" {
					o.Instructions = append(o.Instructions, b)
				}
			}
			return w
		})
	}
	return o
}
