package budget

import (
	"context"
	"fmt"
	"math"
	"testing"
)

// TestBisectFindsTheBudget: a synthetic client with a known wait budget
// (within when the delay it meets is under it), whose server adds a
// start-up to every hold, is bracketed within the resolution in at most
// ceil(log2(range/resolution)) + 2 runs, and in at most 10.
func TestBisectFindsTheBudget(t *testing.T) {
	s := WaitSearch()
	if got := s.MaxRuns(); got != 12 {
		t.Errorf("MaxRuns of 0–60 s to 100 ms = %d, want ceil(log2(600)) + 2 = 12", got)
	}
	for _, tc := range []struct {
		budget, startup float64
		below, above    bool
	}{
		{budget: 0.25, startup: 0.03},
		{budget: 2, startup: 0.03},
		{budget: 2, startup: 0.9}, // a loaded machine: every hold lands 0.9 s late
		{budget: 5, startup: 0.05},
		{budget: 15, startup: 0.04},
		{budget: 30, startup: 0.2},
		{budget: 59, startup: 0.03},
		{budget: 0.01, startup: 0.03, below: true}, // does not wait even for a server up at once
		{budget: math.Inf(1), startup: 0.03, above: true},
	} {
		t.Run(fmt.Sprint(tc.budget, "/", tc.startup), func(t *testing.T) {
			probe := func(ctx context.Context, v float64) Outcome {
				at := v + tc.startup
				return Outcome{Value: v, At: at, Within: at < tc.budget}
			}
			f := Bisect(context.Background(), s, probe)
			if f.Failed != "" || f.Disagree != 0 || f.Unresolved {
				t.Fatalf("failed %q, %d disagreeing", f.Failed, f.Disagree)
			}
			if f.Below != tc.below || f.Above != tc.above {
				t.Fatalf("below %v above %v, want %v %v (%+v)", f.Below, f.Above, tc.below, tc.above, f)
			}
			if len(f.Steps) > s.MaxRuns() || len(f.Steps) > 10 {
				t.Errorf("%d runs, want at most %d and at most 10", len(f.Steps), s.MaxRuns())
			}
			if tc.below || tc.above {
				return
			}
			if !(f.Within < tc.budget && tc.budget <= f.Past) {
				t.Errorf("budget %v not between %v and %v", tc.budget, f.Within, f.Past)
			}
			if res := s.Resolution(f.Within); f.Resolution() > res+1e-9 {
				t.Errorf("bracket %v–%v is %v wide, resolution %v", f.Within, f.Past, f.Resolution(), res)
			}
		})
	}
}

// TestBisectCountsDisagreement: a run that contradicts the bracket (a
// client that waited once for what it did not wait for before: a race)
// is counted and moves neither side; a failed run stops the search.
func TestBisectCountsDisagreement(t *testing.T) {
	n := 0
	f := Bisect(context.Background(), WaitSearch(), func(ctx context.Context, v float64) Outcome {
		n++
		if n == 3 { // the first between the ends: says within at the far end
			return Outcome{Value: v, At: 60, Within: true}
		}
		return Outcome{Value: v, Within: v < 2}
	})
	if f.Disagree != 1 || f.Unresolved || !(f.Within < 2 && 2 <= f.Past) {
		t.Errorf("disagree %d, bracket %v–%v; want 1 and 2 s inside", f.Disagree, f.Within, f.Past)
	}
	f = Bisect(context.Background(), WaitSearch(), func(ctx context.Context, v float64) Outcome {
		if v > 0 && v < 60 {
			return Outcome{Value: v, Failed: "timed out after 2m0s"}
		}
		return Outcome{Value: v, Within: v < 2}
	})
	if f.Failed != "timed out after 2m0s" || len(f.Steps) != 3 {
		t.Errorf("failed %q after %d runs, want the run's reason after 3", f.Failed, len(f.Steps))
	}
}

// TestBisectSaysUnresolved: a server whose start-up adds 3 s to every
// other hold (a loaded machine) makes runs land outside the bracket; the
// search runs out of runs and says it did not resolve the budget.
func TestBisectSaysUnresolved(t *testing.T) {
	n := 0
	f := Bisect(context.Background(), WaitSearch(), func(ctx context.Context, v float64) Outcome {
		n++
		at := v + float64(1-n%2)*3
		return Outcome{Value: v, At: at, Within: at < 2}
	})
	if len(f.Steps) != WaitSearch().MaxRuns() || !f.Unresolved || f.Below || f.Above {
		t.Errorf("%d runs, unresolved %v (%v–%v), want %d runs and unresolved", len(f.Steps), f.Unresolved, f.Within, f.Past, WaitSearch().MaxRuns())
	}
}

// TestBisectFindsACount: a synthetic client that defers its tools from a
// known count, or accepts tool names up to a known length, is found
// exactly (within at the count below, past at the count), every value
// probed a whole number, for every threshold of the range and both ends:
// in at most 10 runs for the deferral threshold (3–512 tools) and 9 for
// the name (1–256 characters), the "≤ 10 runs" a budget, and in 2
// at either end (never defers, defers any server's tools). It fails if a
// change to Bisect or a range makes any of them take one run more.
func TestBisectFindsACount(t *testing.T) {
	for _, tc := range []struct {
		name    string
		s       Search
		maxRuns int
	}{
		{"defer", DeferSearch(), 10},
		{"name", NameSearch(), 9},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.s.MaxRuns(); got != tc.maxRuns {
				t.Fatalf("MaxRuns = %d, want ceil(log2(%v)) + 1 = %d", got, tc.s.Hi-tc.s.Lo, tc.maxRuns)
			}
			most := 0
			// threshold is the first value past the budget: Lo is a
			// client past it everywhere, Hi+1 one within it everywhere.
			for threshold := tc.s.Lo; threshold <= tc.s.Hi+1; threshold++ {
				f := Bisect(context.Background(), tc.s, func(ctx context.Context, v float64) Outcome {
					if v != math.Trunc(v) || v < tc.s.Lo || v > tc.s.Hi {
						t.Errorf("threshold %v: probed %v, not a whole number of the range", threshold, v)
					}
					return Outcome{Value: v, Within: v < threshold}
				})
				most = max(most, len(f.Steps))
				if len(f.Steps) > tc.maxRuns || f.Failed != "" || f.Disagree != 0 || f.Unresolved {
					t.Fatalf("threshold %v: %d runs (at most %d), failed %q, disagree %d, unresolved %v", threshold, len(f.Steps), tc.maxRuns, f.Failed, f.Disagree, f.Unresolved)
				}
				switch {
				case threshold == tc.s.Lo:
					if !f.Below || f.Past != tc.s.Lo || len(f.Steps) != 2 {
						t.Errorf("below %v past %v in %d runs, want below at %v in 2", f.Below, f.Past, len(f.Steps), tc.s.Lo)
					}
				case threshold > tc.s.Hi:
					if !f.Above || f.Within != tc.s.Hi || len(f.Steps) != 2 {
						t.Errorf("above %v within %v in %d runs, want above at %v in 2", f.Above, f.Within, len(f.Steps), tc.s.Hi)
					}
				default:
					if f.Below || f.Above || f.Within != threshold-1 || f.Past != threshold {
						t.Errorf("threshold %v: found %v–%v", threshold, f.Within, f.Past)
					}
				}
			}
			if most != tc.maxRuns {
				t.Errorf("the worst threshold took %d runs, MaxRuns says %d: the bound is loose", most, tc.maxRuns)
			}
		})
	}
}

// TestBisectFollowsAHint: a synthetic client that says when it gave up
// (a run past its budget carries the budget as Hint, as a client that
// cancels its initialize does) is bracketed within the resolution in four
// runs (the ends, then either side of the hint), where the plain search
// takes more; a hint at the range's end takes three; a hint that is wrong
// (a client that gave up later than it stopped waiting) costs runs but
// never a wrong bracket, since only runs bracket.
func TestBisectFollowsAHint(t *testing.T) {
	s := WaitSearch()
	for _, tc := range []struct {
		name           string
		budget, told   float64
		startup        float64
		runs, plainMin int
	}{
		{name: "Claude Code 2.1.332's 27.5 s", budget: 27.5, told: 27.5, startup: 0.03, runs: 4, plainMin: 6},
		{name: "Continue's 60 s at the range's end", budget: 60.01, told: 60.01, startup: 0.01, runs: 3, plainMin: 6},
		{name: "a hint just past the range's end", budget: 60, told: 60.01, startup: 0, runs: 3, plainMin: 6},
		{name: "a hint 5 s late", budget: 20, told: 25, startup: 0.03},
	} {
		t.Run(tc.name, func(t *testing.T) {
			probe := func(hints bool) Probe {
				return func(ctx context.Context, v float64) Outcome {
					at := v + tc.startup
					o := Outcome{Value: v, At: at, Within: at < tc.budget}
					if hints && !o.Within {
						o.Hint = tc.told
					}
					return o
				}
			}
			f := Bisect(context.Background(), s, probe(true))
			if f.Failed != "" || f.Unresolved || f.Below || f.Above {
				t.Fatalf("not bracketed: %+v", f)
			}
			if !(f.Within < tc.budget && tc.budget <= f.Past) || f.Resolution() > s.Resolution(f.Within)+1e-9 {
				t.Errorf("budget %v: bracket %v–%v, resolution %v", tc.budget, f.Within, f.Past, s.Resolution(f.Within))
			}
			if tc.runs > 0 && len(f.Steps) != tc.runs {
				t.Errorf("%d runs with the hint, want %d: %+v", len(f.Steps), tc.runs, f.Steps)
			}
			if len(f.Steps) > s.MaxRuns() {
				t.Errorf("%d runs, over MaxRuns %d", len(f.Steps), s.MaxRuns())
			}
			if plain := Bisect(context.Background(), s, probe(false)); tc.plainMin > 0 && len(plain.Steps) < tc.plainMin {
				t.Errorf("the plain search took %d runs: the hint saves nothing to show", len(plain.Steps))
			}
		})
	}
}

// TestBisectStartsNear: a search given what a neighbouring version showed
// (Search.Near) finds the same bracket as one without, for every edge of
// the name range and every guess (the edge itself, one off either way,
// far off, either end), so a guess never decides a value; an edge that
// did not move takes two runs (one at either end of the range, where the
// plain search takes two as well), a miss at most MaxRuns plus the two it
// tried. A second guess is tried when the first misses: three runs when
// the first's lower side was already past, four when it was within.
func TestBisectStartsNear(t *testing.T) {
	s := NameSearch()
	guesses := func(edge float64) map[string]Found {
		return map[string]Found{
			"the edge":     {Within: edge - 1, Past: edge},
			"one below":    {Within: edge - 2, Past: edge - 1},
			"one above":    {Within: edge, Past: edge + 1},
			"far below":    {Within: 9, Past: 10},
			"far above":    {Within: 200, Past: 201},
			"below all":    {Below: true, Past: s.Lo},
			"above all":    {Above: true, Within: s.Hi},
			"failed":       {Failed: "timed out"},
			"missed, then": {Within: 30, Past: 31},
		}
	}
	for edge := s.Lo; edge <= s.Hi+1; edge++ {
		client := func(ctx context.Context, v float64) Outcome { return Outcome{Value: v, Within: v < edge} }
		plain := Bisect(context.Background(), s, client)
		for name, g := range guesses(edge) {
			near := []Found{g}
			if name == "missed, then" {
				near = append(near, guesses(edge)["the edge"])
			}
			n := s
			n.Near = near
			f := Bisect(context.Background(), n, client)
			if f.Within != plain.Within || f.Past != plain.Past || f.Below != plain.Below || f.Above != plain.Above || f.Disagree != 0 || f.Unresolved || f.Failed != "" {
				t.Fatalf("edge %v, guess %s: found %+v, the plain search %+v", edge, name, f, plain)
			}
			hit := name == "the edge" && edge > s.Lo && edge <= s.Hi ||
				name == "below all" && edge == s.Lo || name == "above all" && edge > s.Hi
			switch {
			case hit && len(f.Steps) > 2:
				t.Errorf("edge %v, guess %s: %d runs, want at most 2", edge, name, len(f.Steps))
			case len(f.Steps) > s.MaxRuns()+2*len(near):
				t.Errorf("edge %v, guess %s: %d runs, over MaxRuns %d and the guesses' %d", edge, name, len(f.Steps), s.MaxRuns(), 2*len(near))
			}
			// A first guess that missed: a run of it past the edge
			// leaves its other side unrun (outside what is open).
			if want := map[bool]int{true: 3, false: 4}[edge <= 30]; name == "missed, then" && edge > s.Lo+1 && edge <= s.Hi && (edge < 30 || edge > 32) && len(f.Steps) != want {
				t.Errorf("edge %v: %d runs after a first guess that missed, want %d", edge, len(f.Steps), want)
			}
		}
	}
}

// TestBisectStartsNearATime: a wait budget guessed from a neighbour's
// bracket, whose server adds a start-up to every hold, is bracketed to
// its resolution around the client's budget in at most three runs when
// the budget did not move, and as the plain search does when it moved.
func TestBisectStartsNearATime(t *testing.T) {
	for _, tc := range []struct {
		budget float64
		near   Found
		most   int
	}{
		{budget: 27.5, near: Found{Within: 26.9, Past: 28.2}, most: 3},
		{budget: 1.2, near: Found{Within: 1.14, Past: 1.2}, most: 3},
		{budget: 1.2, near: Found{Within: 26.9, Past: 28.2}, most: WaitSearch().MaxRuns() + 2},
	} {
		s := WaitSearch()
		s.Near = []Found{tc.near}
		f := Bisect(context.Background(), s, func(ctx context.Context, v float64) Outcome {
			at := v + 0.03
			return Outcome{Value: v, At: at, Within: at < tc.budget}
		})
		if f.Failed != "" || f.Unresolved || f.Disagree != 0 || !(f.Within < tc.budget && tc.budget <= f.Past) || f.Resolution() > s.Resolution(f.Within)+1e-9 {
			t.Errorf("budget %v near %v–%v: found %+v", tc.budget, tc.near.Within, tc.near.Past, f)
		}
		if len(f.Steps) > tc.most {
			t.Errorf("budget %v near %v–%v: %d runs, want at most %d", tc.budget, tc.near.Within, tc.near.Past, len(f.Steps), tc.most)
		}
	}
}
