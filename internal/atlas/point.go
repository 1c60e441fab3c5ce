package atlas

import "strings"

// A Prop is one property of a client version, read from evidence.
type Prop struct {
	Name  string `json:"name"`
	Value string `json:"value"`
	// Evidence is the run directory the value was read from, relative to
	// the sweep's output directory.
	Evidence string `json:"evidence,omitempty"`
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

// Get returns the value of the property named name, or "".
func (p Props) Get(name string) string {
	for _, x := range p {
		if x.Name == name {
			return x.Value
		}
	}
	return ""
}

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

// diff lists the properties whose values differ between a and b.
func diff(a, b Props) []PropChange {
	var out []PropChange
	for _, x := range b {
		before := a.Get(x.Name)
		if before != x.Value {
			out = append(out, PropChange{Name: x.Name, Before: before, After: x.Value})
		}
	}
	return out
}

// A PropChange is one property's value before and after a change point.
type PropChange struct {
	Name   string `json:"name"`
	Before string `json:"before"`
	After  string `json:"after"`
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
