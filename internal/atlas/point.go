package atlas

import (
	"slices"
	"strings"
)

// A Prop is one property of a client version, read from evidence.
type Prop struct {
	Name  string `json:"name"`
	Value string `json:"value"`
	// Evidence is the run directory the value was read from, relative to
	// the sweep's output directory.
	Evidence string `json:"evidence,omitempty"`
	// Timing, when set, says why the value depends on the order of the
	// server's start-up and the client's first request
	// (analyze.Timing.Why), or that repeats gave other values: a race the
	// run won or lost, which no change point is ever made of.
	Timing string `json:"timing,omitempty"`
	// Span, on a budget measured as a number (instrlab sweep -budget),
	// brackets it: two values are the same unless their spans lie apart
	// by more than the resolution.
	Span *Span `json:"span,omitempty"`
}

// mapped is a copy of p with each evidence path replaced by to's: a
// copy, as a segment's properties may share their array with a point's.
func (p Props) mapped(to func(string) string) Props {
	if p == nil {
		return nil
	}
	q := slices.Clone(p)
	for k := range q {
		if q[k].Evidence != "" {
			q[k].Evidence = to(q[k].Evidence)
		}
	}
	return q
}

// A Span is a number known to lie above Lo and at most Hi: a budget
// bracketed by bisection, between the largest value met within it and the
// smallest met past it. Hi 0 means unbounded (within it still at the
// range's end).
type Span struct {
	Lo float64 `json:"lo"`
	Hi float64 `json:"hi,omitempty"`
	// Exact marks a count (a tool count, a name's length), read the same
	// in every run: Lo is the largest met within it and Hi the smallest
	// past it, and two counts differ when their brackets do.
	Exact bool `json:"exact,omitempty"`
}

// apart reports whether the numbers of a and b differ beyond the
// resolution: for two counts, when their brackets differ at all; else
// when one span lies above the other by more than 10% of the lower number
// or 0.1, whichever is larger (a wait budget's resolution).
func (a Span) apart(b Span) bool {
	if a.Exact && b.Exact {
		return a.Lo != b.Lo || a.Hi != b.Hi
	}
	above := func(lo, hi Span) bool { // lo's number below hi's, certainly and by enough
		return lo.Hi > 0 && hi.Lo-lo.Hi > max(0.1, 0.1*lo.Hi)
	}
	return above(a, b) || above(b, a)
}

// sameValue reports whether two readings of a property hold the same
// value: the same text, or spans not apart.
func sameValue(a, b Prop) bool {
	if a.Span != nil && b.Span != nil {
		return !a.Span.apart(*b.Span)
	}
	return a.Value == b.Value
}

// Props are a version's properties, in the order of the registry.
type Props []Prop

// Equal reports whether p and q hold the same values for the same names;
// evidence paths do not count.
func (p Props) Equal(q Props) bool {
	if len(p) != len(q) {
		return false
	}
	for i := range p {
		if p[i].Name != q[i].Name || p[i].Value != q[i].Value {
			return false
		}
	}
	return true
}

// Same reports whether p and q hold the same values for the same names,
// where a value that depends on timing (Prop.Timing) on either side
// counts as the same: a race is not a change.
func (p Props) Same(q Props) bool {
	if len(p) != len(q) {
		return false
	}
	for i := range p {
		if p[i].Name != q[i].Name {
			return false
		}
		if !sameValue(p[i], q[i]) && p[i].Timing == "" && q[i].Timing == "" {
			return false
		}
	}
	return true
}

// Find returns the property named name, or the zero Prop.
func (p Props) Find(name string) Prop {
	for _, x := range p {
		if x.Name == name {
			return x
		}
	}
	return Prop{}
}

// Get returns the value of the property named name, or "".
func (p Props) Get(name string) string { return p.Find(name).Value }

// A Point is what probing one version found: its properties, or why it
// could not run.
type Point struct {
	Version string `json:"version"`
	// Attempt is 1 for the bisection's probe and 2 for the confirmation
	// of a change point.
	Attempt int   `json:"attempt"`
	Props   Props `json:"props,omitempty"`
	// CouldNotRun, when set, says why the adapter could not drive this
	// version (not installable, a flag it lacks, a crash, an output it
	// cannot read). Such a point is never taken for a change.
	CouldNotRun string `json:"could_not_run,omitempty"`
	// Dir is the version's evidence directory, relative to the sweep's
	// output directory.
	Dir string `json:"dir,omitempty"`
}

// Ran reports whether the point has properties.
func (p Point) Ran() bool { return p.CouldNotRun == "" && p.Props != nil }

// diff lists the properties whose values differ between a and b, neither
// of them timing-sensitive: what changed.
func diff(a, b Props) []PropChange {
	var out []PropChange
	for _, x := range b {
		before := a.Find(x.Name)
		if !sameValue(before, x) && before.Timing == "" && x.Timing == "" {
			out = append(out, PropChange{Name: x.Name, Before: before.Value, After: x.Value})
		}
	}
	return out
}

// races lists the properties whose values differ between a and b where
// either value is timing-sensitive, each saying why.
func races(a, b Props) []PropChange {
	var out []PropChange
	for _, x := range b {
		before := a.Find(x.Name)
		if sameValue(before, x) || before.Timing == "" && x.Timing == "" {
			continue
		}
		why := before.Timing
		if why == "" {
			why = x.Timing
		}
		out = append(out, PropChange{Name: x.Name, Before: before.Value, After: x.Value, Timing: why})
	}
	return out
}

// A PropChange is one property's value before and after a change point.
type PropChange struct {
	Name   string `json:"name"`
	Before string `json:"before"`
	After  string `json:"after"`
	// Timing, on a race, says why a value depends on timing.
	Timing string `json:"timing,omitempty"`
}

func (c PropChange) String() string {
	return c.Name + ": " + quoteEmpty(c.Before) + " → " + quoteEmpty(c.After)
}

func quoteEmpty(s string) string {
	if strings.TrimSpace(s) == "" {
		return "(none)"
	}
	return s
}
