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
}

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
	return f
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
