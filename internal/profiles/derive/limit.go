package derive

import (
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/instrlab/instrlab/internal/matrix/analyze"
	"github.com/instrlab/instrlab/internal/profiles"
	"github.com/instrlab/instrlab/internal/table"
	"github.com/instrlab/instrlab/internal/unit"
)

// noTextReached is the note of a client that puts none of a server's
// text in front of the model.
const noTextReached = "None of the text reached the model, so no cap applies to what it sees."

// deriveLimit finds the cap on instructions and its marker from the plain
// runs (nothing set but the text) whose text was cut, and the setting that
// changes it from runs that set one variable.
func deriveLimit(runs []run, ev Evidence) (profiles.Limit, []string) {
	l := profiles.Limit{Unit: profiles.UnitCodepoint}
	if n, _ := unused(runs); n > 0 {
		l.Note = noTextReached
		l.UnitNote = "not measured: no text reached the model"
		return l, nil
	}
	var cut, whole []run
	for _, r := range runs {
		if b := r.First.Best(); r.plain() && b != nil {
			if b.Full {
				whole = append(whole, r)
			} else {
				cut = append(cut, r)
			}
		}
	}
	if len(cut) == 0 {
		for _, r := range whole {
			l.AtLeast = max(l.AtLeast, r.Sent)
		}
		l.Note = fmt.Sprintf("No text was cut in %d runs: the longest, %s characters, was kept whole. The cap, if any, is above that.", len(whole), table.Num(l.AtLeast))
		l.UnitNote = "not measured: no text was cut"
		return l, []string{"the cap on instructions (only a lower bound: no text was cut)", "what the cap counts", "the truncation marker", "the cap setting"}
	}
	var un []string
	var samples []*analyze.Result
	for i := range runs {
		if runs[i].plain() {
			samples = append(samples, &runs[i].Result)
		}
	}
	f := analyze.UnitFinding(samples)
	u := f.Decided()
	if u == "" {
		u = unit.CodePoint
		un = append(un, "what the cap counts: "+f.String())
	}
	l.Unit, l.UnitNote = string(u), f.String()
	kept := map[int][]string{}
	for _, r := range cut {
		k := r.First.Best().Kept
		if s, ok := r.Sample(); ok {
			k = u.Count(s.Kept)
		}
		kept[k] = append(kept[k], r.Row.Instr)
	}
	var caps []int
	for k := range kept {
		caps = append(caps, k)
	}
	sort.Ints(caps)
	if c := caps[len(caps)-1]; len(caps) > 1 && fitsAll(cut, u, c) {
		// A text kept short of the cap because its next character
		// would not fit (a surrogate pair at 1 UTF-16 unit below) is
		// cut at that cap too.
		for _, k := range caps[:len(caps)-1] {
			kept[c] = append(kept[c], kept[k]...)
		}
		caps = []int{c}
	}
	l.Cap, l.Measured = caps[0], len(caps) == 1
	if !l.Measured {
		l.Note = fmt.Sprintf("Texts were cut at different lengths in %s: %v. ", u.Plural(), caps)
		un = append(un, "one cap: the runs disagree")
	}
	var marker string
	var markerNote string
	marker, markerNote = deriveMarker(cut[0], whole, baselineRun(runs), ev)
	l.Marker = marker
	kinds := map[string]bool{}
	for _, in := range kept[l.Cap] {
		kinds[strings.SplitN(in, ":", 2)[0]] = true
	}
	l.Note += fmt.Sprintf("Cut at %s %s in %d of %d plain runs whose text was longer (%s text), then %q (%d characters%s).",
		table.Num(l.Cap), u.Plural(), len(kept[l.Cap]), len(cut)+countOver(whole, l.Cap, u), strings.Join(sortedKeys(kinds), ", "), marker, utf8.RuneCountInString(marker), markerNote)
	var setNote string
	l.Setting, setNote = deriveSetting(runs, l.Cap)
	if setNote != "" {
		l.Note += " " + setNote
	}
	if l.Setting == nil {
		un = append(un, "the cap setting")
	}
	return l, un
}

// fitsAll reports whether every cut text kept the longest prefix of at
// most c units: what it kept fits, and one more character would not.
func fitsAll(cut []run, u unit.Unit, c int) bool {
	for _, r := range cut {
		s, ok := r.Sample()
		if !ok {
			return false
		}
		next := []rune(s.Text[len(s.Kept):])
		if u.Count(s.Kept) > c || len(next) == 0 || u.Count(s.Kept+string(next[0])) <= c {
			return false
		}
	}
	return true
}

// countOver counts the runs kept whole although their text was longer
// than cap in u (a contradiction, reported in the note's count).
func countOver(whole []run, cap int, u unit.Unit) int {
	n := 0
	for _, r := range whole {
		if s, ok := r.Sample(); ok && u.Count(s.Text) > cap {
			n++
		}
	}
	return n
}

// deriveMarker is what follows the kept part of a cut text in its request,
// up to where the segment goes on as it does after a whole text (the tail
// and what follows it, from a plain run kept whole at the same place).
func deriveMarker(c run, whole []run, bl *run, ev Evidence) (string, string) {
	b := c.First.Best()
	seg, err := ev.Segment(c.Dir, c.First.Seq, b.Path)
	text := c.text(b.Reply)
	if err != nil || text == "" {
		return b.Suffix, ", with what followed it: the request could not be read again"
	}
	keptText := string([]rune(text)[:b.Kept])
	i := strings.Index(seg, keptText)
	if i < 0 {
		return b.Suffix, ", with what followed it"
	}
	rest := seg[i+len(keptText):]
	for _, w := range whole {
		wb := w.First.Best()
		if wb.Path != b.Path || wb.Kind != b.Kind {
			continue
		}
		wseg, err := ev.Segment(w.Dir, w.First.Seq, wb.Path)
		wtext := w.text(wb.Reply)
		j := strings.Index(wseg, wtext)
		if err != nil || wtext == "" || j < 0 {
			continue
		}
		after := wseg[j+len(wtext):]
		if after == "" {
			return rest, ""
		}
		r := []rune(after)
		cont := string(r[:min(40, len(r))])
		if k := strings.Index(rest, cont); k >= 0 {
			return rest[:k], ""
		}
	}
	if bl != nil {
		if bseg, err := ev.Segment(bl.Dir, bl.First.Seq, b.Path); err == nil {
			if n := commonSuffixLen(rest, bseg); n > 0 && n < len(rest) {
				return rest[:len(rest)-n], ", up to where the segment ends as it does without instructions"
			}
		}
	}
	for _, t := range c.Transcript {
		if !t.Full && t.Kept == b.Kept && t.Suffix != "" && strings.HasPrefix(b.Suffix, t.Suffix) {
			return t.Suffix, ", as the client's transcript ends the cut text"
		}
	}
	return b.Suffix, ", with what followed it: no whole text at the same place to tell the marker from the tail"
}

func sortedKeys(m map[string]bool) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// deriveSetting looks at runs that set one environment variable and sent a
// text longer than cap: the variable whose value changed what was kept is
// the cap setting. Its syntax is plain digits when every value it took
// was plain digits and a value with other characters was ignored.
func deriveSetting(runs []run, cap int) (*profiles.Setting, string) {
	type seen struct{ took, ignored []string }
	vars := map[string]*seen{}
	for _, r := range runs {
		b := r.First.Best()
		if len(r.Row.Env) != 1 || b == nil || r.Sent <= cap || r.Row.InitDelay != 0 || r.Row.DiscoverDelay != 0 {
			continue
		}
		for k, v := range r.Row.Env {
			if vars[k] == nil {
				vars[k] = &seen{}
			}
			switch {
			case b.Kept > cap:
				vars[k].took = appendNew(vars[k].took, fmt.Sprintf("%s (kept %s)", v, table.Num(b.Kept)))
			case b.Kept == cap:
				vars[k].ignored = appendNew(vars[k].ignored, v)
			}
		}
	}
	for _, k := range sortedKeys(keysOf(vars)) {
		s := vars[k]
		if len(s.took) == 0 {
			continue
		}
		digits := true
		for _, t := range s.took {
			v, _, _ := strings.Cut(t, " ")
			digits = digits && isDigits(v)
		}
		rejected := false
		for _, v := range s.ignored {
			rejected = rejected || !isDigits(v)
		}
		note := fmt.Sprintf("%s=%s raised the cap", k, strings.Join(s.took, ", "))
		if len(s.ignored) > 0 {
			note += fmt.Sprintf("; %s=%s was ignored and the default applied", k, strings.Join(s.ignored, ", "))
		}
		note += "."
		if digits && rejected {
			return &profiles.Setting{Env: k, Syntax: profiles.SyntaxPlainDigits}, note
		}
		return nil, note + " Which forms of the value it accepts is not settled by these runs."
	}
	return nil, ""
}

func keysOf[V any](m map[string]V) map[string]bool {
	out := map[string]bool{}
	for k := range m {
		out[k] = true
	}
	return out
}

func appendNew(list []string, s string) []string {
	for _, x := range list {
		if x == s {
			return list
		}
	}
	return append(list, s)
}

func isDigits(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return s != ""
}
