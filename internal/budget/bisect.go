package budget

import (
	"context"
	"math"
	"slices"
)

// A Search is a range to bisect and how finely.
type Search struct {
	// Lo and Hi bound the values probed; a client within the budget at Lo
	// and past it at Hi has its budget in between.
	Lo, Hi float64
	// Resolution is how close the two sides must come, given the value
	// (the budget) near which they are.
	Resolution func(v float64) float64
	// Next picks the value to probe between a value within the budget and
	// one past it.
	Next func(within, past float64) float64
	// SplitFirst makes the first run the value Next picks between the
	// ends, then the end on its side: a client within at that value is
	// run at Hi, one past it at Lo. Each end then costs two runs instead
	// of one and two, and the runs after them bisect half the range, so
	// the search takes one run fewer at most (a count's 509 values: 10
	// runs, not 11).
	SplitFirst bool
	// Near are what searches of the same budget found on neighbouring
	// versions (a sweep's), nearest first. Each is tried before the ends:
	// its two sides (its end, for one past at Lo or within at Hi), each
	// run only while it lies inside what the runs so far leave open. A
	// budget that did not change is then bracketed in two runs, not in up
	// to MaxRuns. A guess decides only which values are run: every run is
	// evidence as any other, and one that misses leaves the search to go
	// on from what it showed.
	Near []Found
}

// An Outcome is what one run showed.
type Outcome struct {
	// Value is the value the run was set to (a hold, a count).
	Value float64 `json:"value"`
	// At is the value the client met, when the run measures it (a
	// server's hold plus its own start-up); Value otherwise.
	At float64 `json:"at"`
	// Within says whether the client stayed within its budget (it waited
	// for the server; it kept the tools).
	Within bool `json:"within"`
	// Failed says why the run tells nothing; then Within is meaningless.
	Failed string `json:"failed,omitempty"`
	// Hint is where the run showed the budget to lie, when the client
	// told it (the time it gave up on the server, from the server's start,
	// on the scale of At); 0 when it did not. The search runs either side
	// of it first; only runs bracket the budget.
	Hint float64 `json:"hint,omitempty"`
	// Dir is the run's evidence.
	Dir string `json:"dir,omitempty"`
}

// A Probe runs the client once at value v.
type Probe func(ctx context.Context, v float64) Outcome

// Found is what a bisection found.
type Found struct {
	// Within is the largest value met within the budget, Past the
	// smallest met past it: the budget lies between. Below is set when
	// the client was past its budget already at the range's low end,
	// Above when it was still within at its high end; then only one side
	// is known.
	Within, Past float64
	Below, Above bool
	// Steps are the runs, in order.
	Steps []Outcome
	// Disagree counts runs whose side contradicted an earlier run's (within
	// at a value another run was past at, or the reverse): the edge is a
	// race there, and Within and Past are what the runs that agree show.
	Disagree int
	// Failed says why the search stopped before it could bracket;
	// Unresolved is set when it ran out of runs (MaxRuns) before the two
	// sides came within the resolution (runs that landed outside the
	// bracket, or disagreed).
	Failed     string
	Unresolved bool
}

// Resolution is how far apart the two sides are.
func (f Found) Resolution() float64 { return f.Past - f.Within }

// guesses are the values a search tries first, from Near, inside the
// range: a neighbour past at Lo (Below) gives Lo, one within at Hi (Above)
// gives Hi, any other its two sides.
func (s Search) guesses() [][]float64 {
	var out [][]float64
	for _, g := range s.Near {
		var vs []float64
		switch {
		case g.Failed != "" || g.Unresolved && !g.Below && !g.Above:
			continue
		case g.Below:
			vs = []float64{s.Lo}
		case g.Above:
			vs = []float64{s.Hi}
		default:
			for _, v := range []float64{g.Within, g.Past} {
				if v >= s.Lo && v <= s.Hi {
					vs = append(vs, v)
				}
			}
		}
		out = append(out, vs)
	}
	return out
}

// MaxRuns bounds the runs of a search that halves its range each time
// down to the finest resolution it asks for, ends included:
// ceil(log2(range/resolution)) + 2, or + 1 when it splits first (its
// first two runs leave half the range, not all of it).
func (s Search) MaxRuns() int {
	n := int(math.Ceil(math.Log2((s.Hi-s.Lo)/s.Resolution(s.Lo)))) + 2
	if s.SplitFirst {
		n--
	}
	return n
}

// Bisect probes the ends of s's range (SplitFirst: a value between them
// first, then the end on its side), then between the nearest values met
// on either side until they are within the resolution, in at most
// s.MaxRuns runs. A run's At (what the client met) counts, not the value
// it was set to: a server slow to start is later than its hold. A run that
// fails stops the search with why; a run that contradicts the others is
// counted in Disagree and moves neither side. A run past the budget that
// tells where the budget lies (Outcome.Hint) makes the next runs a quarter
// of the resolution either side of it, so that a client that says when it
// gave up is bracketed in two runs after the ends, not in up to MaxRuns.
// Before any of it, the values s.Near gives are run (Search.Near): the
// ends are run only for a side they left unknown, and the runs they took
// are added to MaxRuns.
func Bisect(ctx context.Context, s Search, probe Probe) Found {
	var f Found
	run := func(v float64) (Outcome, bool) {
		o := probe(ctx, v)
		if o.At == 0 {
			o.At = v
		}
		f.Steps = append(f.Steps, o)
		if o.Failed != "" && f.Failed == "" {
			f.Failed = o.Failed
		}
		return o, o.Failed == "" && ctx.Err() == nil
	}
	// take records the side of a run at v: done when the search stops
	// there (past at Lo, Below; within at Hi, Above).
	take := func(v float64, o Outcome) (done bool) {
		switch {
		case v == s.Lo && !o.Within:
			f.Below, f.Past = true, o.At
			return true
		case v == s.Hi && o.Within:
			f.Above, f.Within = true, o.At
			return true
		case o.Within:
			f.Within = o.At
		default:
			f.Past = o.At
		}
		return false
	}
	// end runs one end of the range: done when the search stops there
	// (a failed run, or take's).
	end := func(v float64) (done bool) {
		o, ok := run(v)
		return !ok || take(v, o)
	}
	guessed, within, past := 0, false, false
	for _, vs := range s.guesses() {
		if within && past && f.Past-f.Within <= s.Resolution(f.Within) {
			break
		}
		for _, v := range vs {
			if within && v <= f.Within || past && v >= f.Past {
				continue // outside what is still open: it would tell nothing
			}
			o, ok := run(max(v-f.offset(), s.Lo))
			guessed++
			switch {
			case !ok:
				return f
			case o.Within && past && o.At >= f.Past, !o.Within && within && o.At <= f.Within:
				f.Disagree++
			case take(v, o):
				return f
			default:
				within, past = within || o.Within, past || !o.Within
			}
		}
	}
	switch {
	case within && past:
	case within:
		if end(s.Hi) {
			return f
		}
	case past:
		if end(s.Lo) {
			return f
		}
	case s.SplitFirst:
		o, ok := run(s.Next(s.Lo, s.Hi))
		switch {
		case !ok:
			return f
		case o.Within:
			f.Within = o.At
			if end(s.Hi) {
				return f
			}
		default:
			f.Past = o.At
			if end(s.Lo) {
				return f
			}
		}
	default:
		if end(s.Lo) || end(s.Hi) {
			return f
		}
	}
	var o Outcome
	var ok, below, above bool
	for len(f.Steps) < s.MaxRuns()+guessed && f.Past-f.Within > s.Resolution(f.Within) {
		next := s.Next(f.Within, f.Past)
		// A hint a moment past the run past the budget (Continue CLI
		// cancels 60.0 s after its initialize, 10 ms after the server's
		// start) is taken at that run.
		if h := min(f.hint(), f.Past); h > f.Within {
			r := s.Resolution(h) / 4
			switch {
			case !below && h-r > f.Within:
				next, below = h-r, true
			case !above && h+r < f.Past:
				next, above = h+r, true
			}
		}
		// Set the next value lower by how far what the client met ran
		// past what was set (a server's start-up), so that it lands where
		// wanted.
		v := max(next-f.offset(), s.Lo)
		if o, ok = run(v); !ok {
			return f
		}
		switch {
		case o.Within && o.At >= f.Past, !o.Within && o.At <= f.Within:
			f.Disagree++
		case o.Within:
			f.Within = max(f.Within, o.At)
		default:
			f.Past = min(f.Past, o.At)
		}
	}
	f.Unresolved = f.Past-f.Within > s.Resolution(f.Within)
	return f
}

// hint is the smallest budget a run past it told (Outcome.Hint), 0 when
// none did.
func (f Found) hint() float64 {
	h := 0.0
	for _, st := range f.Steps {
		if st.Failed == "" && !st.Within && st.Hint > 0 && (h == 0 || st.Hint < h) {
			h = st.Hint
		}
	}
	return h
}

// offset is the median of how far what the client met ran past what was
// set, over the runs so far.
func (f Found) offset() float64 {
	var d []float64
	for _, st := range f.Steps {
		if st.Failed == "" {
			d = append(d, max(0, st.At-st.Value))
		}
	}
	if len(d) == 0 {
		return 0
	}
	slices.Sort(d)
	return d[len(d)/2]
}

// Geometric is Next for a budget known to a relative resolution: the
// geometric mean of the two sides, the lower taken to be at least floor,
// so that each run halves the range in ratio (a wait of 0.1 s to 60 s is
// 67 steps of 10%, found in 7 runs).
func Geometric(floor float64) func(within, past float64) float64 {
	return func(within, past float64) float64 {
		lo := max(within, floor)
		if past <= lo {
			return (within + past) / 2
		}
		return math.Sqrt(lo * past)
	}
}

// Relative is a Resolution of frac of the value or min, whichever is
// larger.
func Relative(frac, min float64) func(v float64) float64 {
	return func(v float64) float64 { return max(frac*v, min) }
}
