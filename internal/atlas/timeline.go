package atlas

import "sort"

// A Change is a version where a property's value changed.
type Change struct {
	// Before is the last runnable version probed with the old values;
	// First the first probed with the new ones. When they are neighbours
	// in the published list, First is exactly the first version of the
	// change.
	Before string `json:"before"`
	First  string `json:"first"`
	// Exact is false when versions between Before and First were not
	// probed or could not run, so the change lies somewhere in between.
	Exact bool `json:"exact"`
	// Between counts the published versions strictly between the two.
	Between int          `json:"between,omitempty"`
	Props   []PropChange `json:"props"`
	// Confirmed is set when both neighbours were probed a second time
	// and gave the same values; Flaky when a second probe disagreed.
	Confirmed bool   `json:"confirmed,omitempty"`
	Flaky     bool   `json:"flaky,omitempty"`
	Note      string `json:"note,omitempty"`
}

// A Segment is a run of versions over which every property held.
type Segment struct {
	From  string `json:"from"`
	To    string `json:"to"`
	Props Props  `json:"props"`
	// Probed lists the versions of the segment that were run.
	Probed []string `json:"probed"`
}

// changes reads the change points from points (first attempts only):
// consecutive runnable points, in version order, whose properties differ
// beyond timing (Props.Same).
func changes(versions []string, points []Point) []Change {
	order, ran := ranInOrder(versions, points)
	var out []Change
	for k := 1; k < len(ran); k++ {
		a, b := ran[k-1], ran[k]
		if a.Props.Same(b.Props) {
			continue
		}
		between := order[b.Version] - order[a.Version] - 1
		out = append(out, Change{Before: a.Version, First: b.Version, Exact: between == 0, Between: between, Props: diff(a.Props, b.Props)})
	}
	return out
}

// raceChanges lists the neighbouring runnable points whose values differ
// only where a value is timing-sensitive: who won a race, never a change
// point, kept to be shown as such.
func raceChanges(versions []string, points []Point) []Change {
	order, ran := ranInOrder(versions, points)
	var out []Change
	for k := 1; k < len(ran); k++ {
		a, b := ran[k-1], ran[k]
		if rs := races(a.Props, b.Props); len(rs) > 0 {
			between := order[b.Version] - order[a.Version] - 1
			out = append(out, Change{Before: a.Version, First: b.Version, Exact: between == 0, Between: between, Props: rs})
		}
	}
	return out
}

// segments cuts the runnable first-attempt points into runs of the same
// properties (Props.Same: a timing-sensitive value does not cut a run).
func segments(versions []string, points []Point) []Segment {
	_, ran := ranInOrder(versions, points)
	var out []Segment
	for _, p := range ran {
		if n := len(out); n > 0 && out[n-1].Props.Same(p.Props) {
			out[n-1].To = p.Version
			out[n-1].Probed = append(out[n-1].Probed, p.Version)
			continue
		}
		out = append(out, Segment{From: p.Version, To: p.Version, Props: p.Props, Probed: []string{p.Version}})
	}
	return out
}

// ranInOrder returns each version's index in versions, and the first
// attempts among points that ran, in that order.
func ranInOrder(versions []string, points []Point) (map[string]int, []Point) {
	order := map[string]int{}
	for i, v := range versions {
		order[v] = i
	}
	var ran []Point
	for _, p := range points {
		if _, ok := order[p.Version]; ok && p.Attempt <= 1 && p.Ran() {
			ran = append(ran, p)
		}
	}
	sort.Slice(ran, func(i, j int) bool { return order[ran[i].Version] < order[ran[j].Version] })
	return order, ran
}
