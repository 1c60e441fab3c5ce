package unit

import (
	"fmt"
	"strings"
)

// A Sample is one text a client received and what arrived of it.
type Sample struct {
	// Text is the server's whole text; Kept the part of it that arrived,
	// from its start.
	Text, Kept string
	// Said is the client's own report of the cut, when it logged one.
	Said *Said
}

// Said is a client's own report of one cut, in its own unit: the text's
// length and the cap it cut it to (Claude Code's debug log: "Server
// instructions truncated from 4472 to 4096 chars").
type Said struct {
	From, To int
}

// Cut reports whether part of the text was lost.
func (s Sample) Cut() bool { return len(s.Kept) < len(s.Text) }

// A Finding is which units fit a client's cuts.
type Finding struct {
	// Units fit every sample, in All's order: in each, every cut text
	// kept the longest prefix that fits one cap, and no text longer than
	// that cap was kept whole.
	Units []Unit
	// Caps is the cap in each unit: the longest kept length of a cut text.
	Caps map[Unit]int
	// Ranges is, for each unit, the shortest and longest kept length of a
	// cut text.
	Ranges map[Unit][2]int
	// Cut and Whole count the samples that were cut and kept whole.
	Cut, Whole int
	// By says how the unit was told apart when the cuts alone leave
	// several (ByLog, ByRound); "" when they leave one or none.
	By string
}

// How a unit left undecided by the cuts is told apart.
const (
	// ByLog: the client's own report of the cut (Sample.Said) is the
	// length kept in exactly one of the units that fit.
	ByLog = "the client's log"
	// ByRound: in exactly one of the units that fit, a round number
	// (a power of two, a multiple of 500 or 1,024) is a cap that keeps
	// what every cut text kept.
	ByRound = "a round cap"
)

// Infer finds the units in which the samples' cuts agree. With no cut
// sample the Finding has no units: a cap that was never reached has no
// unit to measure.
func Infer(samples []Sample) Finding {
	f := Finding{Caps: map[Unit]int{}, Ranges: map[Unit][2]int{}}
	for _, s := range samples {
		if s.Cut() {
			f.Cut++
		} else {
			f.Whole++
		}
	}
	if f.Cut == 0 {
		return f
	}
	for _, u := range All {
		lo, hi := -1, 0
		for _, s := range samples {
			if s.Cut() {
				k := u.Count(s.Kept)
				hi = max(hi, k)
				if lo < 0 || k < lo {
					lo = k
				}
			}
		}
		f.Caps[u], f.Ranges[u] = hi, [2]int{lo, hi}
		if fits(u, hi, samples) {
			f.Units = append(f.Units, u)
		}
	}
	if len(f.Units) > 1 {
		f.tellApart(samples)
	}
	return f
}

// tellApart narrows several units that fit the cuts to one: the unit the
// client's own report of a cut names (its cap is what was kept in that
// unit, and, where it matches any, its length of the text), else the one
// unit in which a round number is a cap every cut fits. The cap is then
// that number: a text may keep one unit less where the next character is
// wider. Tokens are never picked: their count is an estimate with another
// model's tokenizer, which agrees with the client's by chance ("🚀x" is
// three of them, as many as its UTF-16 units).
func (f *Finding) tellApart(samples []Sample) {
	pick := func(u Unit, c int, by string) {
		f.Units, f.By = []Unit{u}, by
		f.Caps[u] = c
	}
	var logged []Unit
	said := 0
	for _, u := range f.Units {
		if u == Token {
			continue // an estimate of another tokenizer: it agrees by chance
		}
		ok, n := true, 0
		for _, s := range samples {
			if !s.Cut() || s.Said == nil {
				continue
			}
			n++
			lo, hi := window(u, s)
			ok = ok && lo <= s.Said.To && s.Said.To <= hi
		}
		if n > 0 && ok {
			logged = append(logged, u)
		}
		said = max(said, n)
	}
	if said > 0 && len(logged) > 1 {
		// Prefer the units that also count the text as the client did.
		var both []Unit
		for _, u := range logged {
			if allFrom(u, samples) {
				both = append(both, u)
			}
		}
		if len(both) > 0 {
			logged = both
		}
	}
	if len(logged) == 1 {
		for _, s := range samples {
			if s.Cut() && s.Said != nil {
				pick(logged[0], s.Said.To, ByLog)
				return
			}
		}
	}
	var round []Unit
	caps := map[Unit]int{}
	for _, u := range f.Units {
		if u == Token {
			continue
		}
		lo, hi := 0, -1
		for _, s := range samples {
			if !s.Cut() {
				continue
			}
			l, h := window(u, s)
			if hi < 0 {
				lo, hi = l, h
			} else {
				lo, hi = max(lo, l), min(hi, h)
			}
		}
		for c := hi; c >= lo && hi >= 0; c-- {
			if isRound(c) {
				round, caps[u] = append(round, u), c
				break
			}
		}
	}
	if len(round) == 1 {
		pick(round[0], caps[round[0]], ByRound)
	}
}

// window is the caps in u that keep exactly what s kept: at least its
// kept length, less than that and the next character.
func window(u Unit, s Sample) (lo, hi int) {
	next := s.Text[:len(s.Kept)+u.step(s.Text[len(s.Kept):])]
	return u.Count(s.Kept), u.Count(next) - 1
}

// allFrom reports whether every cut sample with a report counts as long
// in u as the client said.
func allFrom(u Unit, samples []Sample) bool {
	for _, s := range samples {
		if s.Cut() && s.Said != nil && u.Count(s.Text) != s.Said.From {
			return false
		}
	}
	return true
}

// isRound reports whether a cap of n looks chosen: a power of two from
// 128, or a multiple of 500 or of 1,024.
func isRound(n int) bool {
	switch {
	case n < 100:
		return false
	case n >= 128 && n&(n-1) == 0:
		return true
	}
	return n%500 == 0 || n%1024 == 0
}

// fits reports whether a client that counts u with a cap of c would have
// kept exactly what every sample kept.
func fits(u Unit, c int, samples []Sample) bool {
	for _, s := range samples {
		if !s.Cut() {
			if u.Count(s.Text) > c {
				return false
			}
			continue
		}
		if !strings.HasPrefix(s.Text, s.Kept) {
			return false
		}
		if u == Grapheme && !endsGrapheme(s.Text, len(s.Kept)) {
			return false // the cut split a grapheme
		}
		next := s.Text[:len(s.Kept)+u.step(s.Text[len(s.Kept):])]
		if u.Count(s.Kept) > c || u.Count(next) <= c {
			return false
		}
	}
	return true
}

// endsGrapheme reports whether byte offset i of s is a grapheme boundary.
func endsGrapheme(s string, i int) bool {
	for j := 0; j < len(s); j += graphemeLen(s[j:]) {
		if j == i {
			return true
		}
		if j > i {
			return false
		}
	}
	return i == len(s)
}

// Decided is the one unit the evidence leaves, or "" when it leaves none
// or several.
func (f Finding) Decided() Unit {
	if len(f.Units) == 1 {
		return f.Units[0]
	}
	return ""
}

// String says what the finding is, for a table note or a profile: the
// unit and its cap, or why there is none.
func (f Finding) String() string {
	switch {
	case f.Cut == 0:
		return fmt.Sprintf("not measured: no text was cut (%d kept whole)", f.Whole)
	case len(f.Units) == 0:
		return fmt.Sprintf("no single unit: the %d cut text(s) kept different lengths in every unit (%s)", f.Cut, f.rangeList(All))
	case len(f.Units) == 1 && f.By != "":
		u := f.Units[0]
		return fmt.Sprintf("%s, by %s: a cap of %d %s (%d cut text(s); the cuts alone fit other units too: %s)", u.Plural(), f.By, f.Caps[u], u.Short(), f.Cut, f.others())
	case len(f.Units) == 1:
		u := f.Units[0]
		s := fmt.Sprintf("%s: %d cut text(s) all kept %d %s", u.Plural(), f.Cut, f.Caps[u], u.Short())
		if others := f.others(); others != "" {
			s += "; in other units they varied: " + others
		}
		return s
	}
	names := make([]string, len(f.Units))
	for i, u := range f.Units {
		names[i] = u.Plural()
	}
	return fmt.Sprintf("not told apart: %s all fit the %d cut text(s) (only text where these units agree was cut)", strings.Join(names, ", "), f.Cut)
}

// others lists the kept ranges of the units other than the decided one.
func (f Finding) others() string {
	var out []Unit
	for _, u := range All {
		if u != f.Decided() {
			out = append(out, u)
		}
	}
	return f.rangeList(out)
}

func (f Finding) rangeList(us []Unit) string {
	var parts []string
	for _, u := range us {
		r := f.Ranges[u]
		if r[0] == r[1] {
			parts = append(parts, fmt.Sprintf("%s %d", u.Short(), r[0]))
		} else {
			parts = append(parts, fmt.Sprintf("%s %d–%d", u.Short(), r[0], r[1]))
		}
	}
	return strings.Join(parts, ", ")
}
