package derive

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/instrlab/instrlab/internal/labvocab"
	"github.com/instrlab/instrlab/internal/matrix/analyze"
	"github.com/instrlab/instrlab/internal/profiles"
	"github.com/instrlab/instrlab/internal/table"
	"github.com/instrlab/instrlab/internal/unit"
)

// deriveTools reads what became of the server's tool descriptions in the
// first request of the plain runs that recorded them (the Result's Tools:
// rows with a tool_description, and a user's server behind the proxy):
// how they reached the model, and, when one was cut, the cap, its unit
// and the marker, the way deriveLimit reads them for instructions. When
// none was sent (the tools named alone, or only their server), that is
// what the limit says, with no cap: Unsent. A cap is then read from the
// runs that set one variable and got the descriptions sent, if any, and
// the note names the variable.
func deriveTools(runs []run) (profiles.Limit, []string) {
	var plain, set []run
	for _, r := range runs {
		switch {
		case r.plain():
			plain = append(plain, r)
		case r.First != nil && r.isSetting():
			set = append(set, r)
		}
	}
	l, un := toolLimit(plain)
	if !l.Unsent {
		return l, un
	}
	for _, env := range settingsOf(set) {
		var with []run
		for _, r := range set {
			if r.settingString() == env {
				with = append(with, r)
			}
		}
		sl, sun := toolLimit(with)
		if sl.Unsent || sl.Via == "" {
			continue
		}
		l.Cap, l.AtLeast, l.Unit, l.UnitNote, l.Marker, l.Wrapper = sl.Cap, sl.AtLeast, sl.Unit, sl.UnitNote, sl.Marker, sl.Wrapper
		l.Note += fmt.Sprintf(" With %s they were sent (%s): %s", env, viaWords[sl.Via], sl.Note)
		un = append(un[:0:0], sun...)
		break
	}
	return l, un
}

// isSetting reports whether the run sets environment variables and
// nothing else beyond the server's text (no flags or delays).
func (r run) isSetting() bool {
	return len(r.Row.Env) > 0 && len(r.Row.Flags) == 0 && r.Row.InitDelay == 0 && r.Row.DiscoverDelay == 0
}

// settingString is the run's environment as NAME=VALUE, sorted.
func (r run) settingString() string {
	var kv []string
	for _, k := range slices.Sorted(maps.Keys(r.Row.Env)) {
		kv = append(kv, k+"="+r.Row.Env[k])
	}
	return strings.Join(kv, " ")
}

// settingsOf lists the distinct environments of runs that recorded tools.
func settingsOf(runs []run) []string {
	var out []string
	for _, r := range runs {
		if len(r.Tools) > 0 && !slices.Contains(out, r.settingString()) {
			out = append(out, r.settingString())
		}
	}
	slices.Sort(out)
	return out
}

// A toolSeen is one tool of one run: what the run analysis found of its
// description, and the description the server sent.
type toolSeen struct {
	analyze.ToolFacts
	text string
}

// toolLimit reads the limit on tool descriptions from the tools of runs.
func toolLimit(runs []run) (profiles.Limit, []string) {
	l := profiles.Limit{Unit: profiles.UnitCodepoint}
	var found, cut []toolSeen
	vias, wrappers := map[string]int{}, map[string]int{}
	seen, withTools := 0, 0
	for _, r := range runs {
		if len(r.Tools) > 0 {
			withTools++
		}
		for _, t := range r.Tools {
			seen++
			vias[t.Via]++
			if !t.Found {
				continue
			}
			wrappers[t.Wrapper]++
			ts := toolSeen{t, serverTool(r.Result, t.Name)}
			found = append(found, ts)
			if t.Full {
				l.AtLeast = max(l.AtLeast, t.Sent)
			} else {
				cut = append(cut, ts)
			}
		}
	}
	un := []string{"the cap and marker on tool descriptions"}
	if seen == 0 {
		l.Note = "Not measured: no run recorded the server's tool descriptions (a matrix row with a tool_description does, and a server behind the proxy)."
		return l, un
	}
	if len(found) == 0 {
		l.Via, l.Unsent, l.Measured = mostOf(vias), true, true
		l.Note = fmt.Sprintf("Not sent: none of %d tool descriptions (in %d runs) reached the first request; %s.", seen, withTools, viaList(vias))
		return l, []string{"the cap on tool descriptions (none was sent)"}
	}
	l.Via, l.Wrapper = mostOf(foundVias(found)), mostOf(wrappers)
	if len(cut) == 0 {
		l.UnitNote = "not measured: no description was cut"
		l.Note = fmt.Sprintf("No tool description was cut: %d arrived whole (%s), the longest %s characters. The cap, if any, is above that.", len(found), viaList(vias), table.Num(l.AtLeast))
		return l, []string{"the cap on tool descriptions (only a lower bound: none was cut)", "what the tool description cap counts", "the marker on a cut tool description"}
	}
	var samples []unit.Sample
	for _, t := range found {
		samples = append(samples, unit.Sample{Text: t.text, Kept: unit.CodePoint.Prefix(t.text, t.Kept)})
	}
	f := unit.Infer(samples)
	var above []toolSeen
	if len(f.Units) == 0 {
		// No unit fits because texts longer than what a cut kept
		// arrived whole: a client that cuts only past a threshold and
		// then keeps less (opencode's code mode: 120 whole, 121 cut to
		// 119). The cap is read from the others; Whole is the longest
		// of these.
		shortest := slices.MinFunc(cut, func(a, b toolSeen) int { return a.Kept - b.Kept }).Kept
		var rest []unit.Sample
		for i, t := range found {
			if t.Full && t.Sent > shortest {
				above = append(above, t)
				continue
			}
			rest = append(rest, samples[i])
		}
		if g := unit.Infer(rest); len(above) > 0 && len(g.Units) > 0 {
			f = g
		} else {
			above = nil
		}
	}
	u := f.Decided()
	un = nil
	switch {
	case u != "":
	case slices.Contains(f.Units, unit.CodePoint):
		u = unit.CodePoint
		un = append(un, "what the tool description cap counts: "+f.String())
	case len(f.Units) > 0:
		u = f.Units[0]
		un = append(un, "what the tool description cap counts: "+f.String())
	}
	l.AtLeast, l.UnitNote = 0, f.String()
	if u == "" {
		var kept []int
		for _, t := range cut {
			if !slices.Contains(kept, t.Kept) {
				kept = append(kept, t.Kept)
			}
		}
		slices.Sort(kept)
		l.Cap = kept[0]
		l.Note = fmt.Sprintf("Tool descriptions were cut at different lengths in every unit: %v characters. ", kept)
		un = append(un, "one cap on tool descriptions: the runs disagree", "what the tool description cap counts")
	} else {
		l.Unit, l.Cap, l.Measured = string(u), f.Caps[u], true
		for _, t := range above {
			l.Whole = max(l.Whole, u.Count(t.text))
		}
	}
	l.Marker = toolMarker(cut)
	l.Note += fmt.Sprintf("Cut at %s %s in %d of %d descriptions (%s), then %q; %d arrived whole.",
		table.Num(l.Cap), unitWords(f.Decided()), len(cut), len(found), viaList(vias), l.Marker, len(found)-len(cut))
	if l.Whole > 0 {
		l.Note += fmt.Sprintf(" Up to %s %s arrived whole: only a longer one was cut.", table.Num(l.Whole), unitWords(f.Decided()))
	}
	return l, un
}

// unitWords is u in words: "characters" for code points (or no unit).
func unitWords(u unit.Unit) string {
	if u == "" || u == unit.CodePoint {
		return "characters"
	}
	return u.Plural()
}

// toolMarker is what the client put after the kept part of every cut
// description: the longest start their suffixes (ToolFacts.Suffix) share
// that ends before the first quote or line break, which close the
// description in a listing or definition.
func toolMarker(cut []toolSeen) string {
	m := cut[0].Suffix
	for _, t := range cut[1:] {
		m = m[:commonPrefixLen(m, t.Suffix)]
	}
	if i := strings.IndexAny(m, "\"\n"); i >= 0 {
		m = m[:i]
	}
	return m
}

// serverTool is the description the server sent for tool name.
func serverTool(r analyze.Result, name string) string {
	if r.ServerTexts == nil {
		return ""
	}
	for _, t := range r.ServerTexts.Tools {
		if t.Name == name {
			return t.Description
		}
	}
	return ""
}

func foundVias(ts []toolSeen) map[string]int {
	m := map[string]int{}
	for _, t := range ts {
		m[t.Via]++
	}
	return m
}

// mostOf is the key counted most, the first in sorted order on a tie.
func mostOf(m map[string]int) string {
	best, n := "", -1
	for _, k := range slices.Sorted(maps.Keys(m)) {
		if m[k] > n {
			best, n = k, m[k]
		}
	}
	return best
}

// viaList says how many tools reached the model each way.
func viaList(vias map[string]int) string {
	var parts []string
	for _, v := range slices.Sorted(maps.Keys(vias)) {
		parts = append(parts, fmt.Sprintf("%d %s", vias[v], viaWords[v]))
	}
	return strings.Join(parts, ", ")
}

// viaWords say how a tool reached the model (analyze.ToolFacts.Via).
var viaWords = map[string]string{
	"":                    "not named in it",
	analyze.ViaDefinition: "in tool definitions",
	analyze.ViaListing:    "in a listing of the tools",
	analyze.ViaNameOnly:   "named without the description",
	analyze.ViaNamespace:  "not named, only the server's namespace",
}

// toolSays is the tool descriptions' part of the evidence entry's line.
func toolSays(l profiles.Limit) string {
	first := ""
	if l.Lines == profiles.LinesFirst {
		first = ", the first line alone of a description of several lines"
	}
	switch {
	case l.Via == "":
		return ""
	case l.Unsent && l.Cap > 0:
		return fmt.Sprintf("; tool descriptions not sent (%s), cut at %s %s where sent", l.Via, table.Num(l.Cap), unitWords(unit.Unit(l.Unit)))
	case l.Unsent:
		return fmt.Sprintf("; tool descriptions not sent (%s)", l.Via)
	case l.Cap > 0:
		return fmt.Sprintf("; tool descriptions cut at %s %s, then %q%s", table.Num(l.Cap), unitWords(unit.Unit(l.Unit)), l.Marker, first)
	}
	return fmt.Sprintf("; tool descriptions whole up to %s characters%s", table.Num(l.AtLeast), first)
}

// deriveTrim reads what the client removed of the white space around the
// lab's padded description (labvocab.NamePadded, in the names row's runs surf)
// from how many characters the run analysis found trimmed: the lead and
// the tail differ in length, so the count says which. It is read only
// where the description reached the model as via says the client's
// descriptions do (the same rendering) under the profile's own model
// (model: the surface's, "" when the profile's); "" where not measured,
// the runs disagree, or nothing of the description arrived (a client that
// keeps an empty first line).
func deriveTrim(surf []run, via, model string) string {
	if model != "" {
		return ""
	}
	lead, tail := utf8.RuneCountInString(labvocab.PaddedLead), utf8.RuneCountInString(labvocab.PaddedTail)
	fates := map[int]string{0: profiles.TrimNone, lead: profiles.TrimStart, tail: profiles.TrimEnd, lead + tail: profiles.TrimBoth}
	trim := ""
	for _, r := range surf {
		for _, t := range r.Tools {
			if t.Name != labvocab.NamePadded || !t.Found || t.Via != via || !t.Full {
				continue
			}
			f, ok := fates[t.Trimmed]
			if !ok || trim != "" && trim != f {
				return ""
			}
			trim = f
		}
	}
	return trim
}
