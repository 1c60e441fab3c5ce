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
// exactly (within at the count below, past at the count) in at most
// ceil(log2(range/resolution)) + 2 runs, every value probed a whole
// number; at the range's ends it says below or above.
func TestBisectFindsACount(t *testing.T) {
	for _, tc := range []struct {
		name      string
		s         Search
		maxRuns   int
		threshold float64 // the first value past the budget
	}{
		{"defer 4", DeferSearch(), 11, 4},
		{"defer 41", DeferSearch(), 11, 41},
		{"defer 129", DeferSearch(), 11, 129},
		{"defer 512", DeferSearch(), 11, 512},
		{"defer always", DeferSearch(), 11, 3},
		{"defer never", DeferSearch(), 11, 513},
		{"name 2", NameSearch(), 10, 2},
		{"name 55", NameSearch(), 10, 55},
		{"name 119", NameSearch(), 10, 119},
		{"name 256", NameSearch(), 10, 256},
		{"name none", NameSearch(), 10, 1},
		{"name any", NameSearch(), 10, 257},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.s.MaxRuns(); got != tc.maxRuns {
				t.Fatalf("MaxRuns = %d, want ceil(log2(%v)) + 2 = %d", got, tc.s.Hi-tc.s.Lo, tc.maxRuns)
			}
			f := Bisect(context.Background(), tc.s, func(ctx context.Context, v float64) Outcome {
				if v != math.Trunc(v) {
					t.Errorf("probed %v, not a whole number", v)
				}
				return Outcome{Value: v, Within: v < tc.threshold}
			})
			if len(f.Steps) > tc.s.MaxRuns() || f.Failed != "" || f.Disagree != 0 || f.Unresolved {
				t.Fatalf("%d runs (at most %d), failed %q, disagree %d, unresolved %v", len(f.Steps), tc.s.MaxRuns(), f.Failed, f.Disagree, f.Unresolved)
			}
			switch {
			case tc.threshold <= tc.s.Lo:
				if !f.Below || f.Past != tc.s.Lo {
					t.Errorf("below %v past %v, want below at %v", f.Below, f.Past, tc.s.Lo)
				}
			case tc.threshold > tc.s.Hi:
				if !f.Above || f.Within != tc.s.Hi {
					t.Errorf("above %v within %v, want above at %v", f.Above, f.Within, tc.s.Hi)
				}
			default:
				if f.Within != tc.threshold-1 || f.Past != tc.threshold {
					t.Errorf("found %v–%v, want %v–%v", f.Within, f.Past, tc.threshold-1, tc.threshold)
				}
			}
		})
	}
}
