package assess

import "github.com/instrlab/instrlab/internal/probe"

// Redacted returns rep as it may be printed: in each server, every text the
// server or its config controls with that server's credentials hidden (its
// config's env and header values, its URL's query values, its credential
// arguments, and key-shaped values; see probe.Target.Redactor). Everything
// was measured before, on what the server sent: lengths, cuts, sections and
// rule verdicts are of the sent text, so a printed text may be shorter than
// its measured length where a secret was hidden.
func (rep Report) Redacted() Report {
	out := rep
	out.Servers = make([]Server, len(rep.Servers))
	for i, s := range rep.Servers {
		r := s.Target.Redactor()
		s.shown = map[probe.Era]shownText{}
		for _, e := range []probe.EraResult{s.Legacy, s.Modern} {
			if e.Instructions != nil {
				pieces, total := cutPieces(*e.Instructions, cutMarks(s, e.Era))
				for k := range pieces {
					pieces[k] = r.Prose(pieces[k])
				}
				s.shown[e.Era] = shownText{pieces, total}
			}
		}
		s.Result = s.Result.Redacted()
		if s.EraDiff != nil {
			d := *s.EraDiff
			d.Legacy, d.Modern = r.Prose(d.Legacy), r.Prose(d.Modern)
			s.EraDiff = &d
		}
		s.Texts = append([]Text(nil), s.Texts...)
		for j, t := range s.Texts {
			t.Sections = append([]Section(nil), t.Sections...)
			for k := range t.Sections {
				t.Sections[k].Title = r.Prose(t.Sections[k].Title)
			}
			s.Texts[j] = t
		}
		s.Views = append([]View(nil), s.Views...)
		for j, v := range s.Views {
			v.Before, v.After, v.Why = r.Prose(v.Before), r.Prose(v.After), r.String(v.Why)
			v.Tools = append([]ToolFate(nil), v.Tools...)
			for k, f := range v.Tools {
				f.Tool, f.Before, f.After = r.Prose(f.Tool), r.Prose(f.Before), r.Prose(f.After)
				v.Tools[k] = f
			}
			v.Surface = append([]SurfaceFate(nil), v.Surface...)
			for k, f := range v.Surface {
				f.Tool, f.Name, f.NameNote = r.Prose(f.Tool), r.Prose(f.Name), r.Prose(f.NameNote)
				v.Surface[k] = f
			}
			s.Views[j] = v
		}
		s.Findings = append([]Finding(nil), s.Findings...)
		for j := range s.Findings {
			f := &s.Findings[j]
			f.Message, f.Tool, f.Loss, f.Fix = r.Prose(f.Message), r.Prose(f.Tool), r.Prose(f.Loss), r.Prose(f.Fix)
		}
		s.Problems = append([]Problem(nil), s.Problems...)
		for j := range s.Problems {
			p := &s.Problems[j]
			p.Loss, p.Fix = r.Prose(p.Loss), r.Prose(p.Fix)
			p.Tools, p.Kinds = proseAll(r.Prose, p.Tools), proseAll(r.Prose, p.Kinds)
		}
		s.Verdicts = append([]ClientVerdict(nil), s.Verdicts...)
		for j := range s.Verdicts {
			s.Verdicts[j].Because = proseAll(r.Prose, s.Verdicts[j].Because)
		}
		s.Tools = append([]ToolView(nil), s.Tools...)
		for j := range s.Tools {
			s.Tools[j].Tool = r.Prose(s.Tools[j].Tool)
		}
		out.Servers[i] = s
	}
	out.Combined = append([]Combined(nil), rep.Combined...)
	for i := range out.Combined {
		for _, s := range rep.Servers {
			out.Combined[i].Text = s.Target.Redactor().Prose(out.Combined[i].Text)
		}
	}
	return out
}

// proseAll is each of ss through prose, in a new slice.
func proseAll(prose func(string) string, ss []string) []string {
	if ss == nil {
		return nil
	}
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = prose(s)
	}
	return out
}
