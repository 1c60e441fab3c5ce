package assess

import (
	"github.com/instrlab/instrlab/internal/probe"
	"github.com/instrlab/instrlab/internal/redact"
)

// Redacted returns rep as it may be printed: in each server, every text the
// server or its config controls with that server's credentials hidden (its
// config's env and header values and the values its ${VAR}s took, its
// URL's query values, its credential arguments, key-shaped values, and
// what its stderr shows as credentials; see probe.Result.Redactor). Everything was measured before, on what the
// server sent: lengths, cuts, sections and rule verdicts are of the sent
// text, so a printed text may be shorter than its measured length where a
// secret was hidden.
//
// Redaction is by value: every string of the server's report, in whatever
// field (a section's title in a view's loss, a tool's name in a problem),
// goes through the redactor (redact.Copy). Before that, what needs more:
// the probe's own details and stderr (probe.Result.Redacted: assignments
// too), a view's reason, and the text around each cut, from the whole
// text, so that a value the window or the cut halves is hidden; after it,
// the instructions as check shows them, in pieces at each profile's cut,
// a value cut in two hidden in both halves (ProsePieces).
func (rep Report) Redacted() Report {
	out := rep
	out.Servers = make([]Server, len(rep.Servers))
	rs := make([]*redact.Redactor, len(rep.Servers)) // each server's, made once
	for i, s := range rep.Servers {
		r := s.Result.Redactor()
		rs[i] = r
		s.Result = s.Result.RedactedBy(r)
		s.Views = append([]View(nil), s.Views...)
		why := once(r.String) // the views of a server share a few reasons
		for j := range s.Views {
			v := &s.Views[j]
			v.Why = why(v.Why)
			if v.Truncated {
				v.Before, v.After = aroundCut(v.text, v.KeptChars, contextChars, r.ProsePieces)
			}
			v.Tools = append([]ToolFate(nil), v.Tools...)
			for k := range v.Tools {
				if f := &v.Tools[k]; f.Truncated {
					f.Before, f.After = aroundCut(f.desc, f.lead+f.KeptChars, contextChars/2, r.ProsePieces)
				}
			}
		}
		s = redact.Copy(s, once(r.Prose))
		s.shown = map[probe.Era]shownText{}
		for _, e := range []probe.EraResult{rep.Servers[i].Legacy, rep.Servers[i].Modern} {
			if e.Instructions != nil {
				pieces, total := cutPieces(*e.Instructions, cutMarks(rep.Servers[i], e.Era))
				s.shown[e.Era] = shownText{r.ProsePieces(pieces), total}
			}
		}
		out.Servers[i] = s
	}
	out.Combined = append([]Combined(nil), rep.Combined...)
	for i := range out.Combined {
		for _, r := range rs {
			out.Combined[i].Text = r.Prose(out.Combined[i].Text)
		}
	}
	return out
}

// once is f remembering its answers: a report holds the same texts many
// times over (each client's view of the same instructions and tools).
func once(f func(string) string) func(string) string {
	seen := map[string]string{}
	return func(s string) string {
		if v, ok := seen[s]; ok {
			return v
		}
		v := f(s)
		seen[s] = v
		return v
	}
}
