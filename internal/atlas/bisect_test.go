package atlas

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/instrlab/instrlab/internal/matrix/analyze"
)

// history is a synthetic client: n versions, a property "cap" that takes
// the value of the last change at or before each version, and versions
// that cannot run.
type history struct {
	n        int
	changes  map[int]string // index -> new cap value
	start    string
	broken   map[int]bool
	probes   map[string]int // version -> times probed
	flakyAt  int            // a version whose second probe differs (-1: none)
	versions []string
}

func newHistory(n int, start string, changes map[int]string) *history {
	h := &history{n: n, start: start, changes: changes, broken: map[int]bool{}, probes: map[string]int{}, flakyAt: -1}
	for i := 0; i < n; i++ {
		h.versions = append(h.versions, fmt.Sprintf("1.%d.%d", i/100, i%100))
	}
	return h
}

func (h *history) value(i int) string {
	v := h.start
	for k := 0; k <= i; k++ {
		if c, ok := h.changes[k]; ok {
			v = c
		}
	}
	return v
}

func (h *history) probe(_ context.Context, version string, attempt int) Point {
	h.probes[version]++
	i := -1
	for k, v := range h.versions {
		if v == version {
			i = k
		}
	}
	if h.broken[i] {
		return Point{CouldNotRun: "no --mcp-config flag"}
	}
	v := h.value(i)
	if attempt == 2 && i == h.flakyAt {
		v += "?"
	}
	return Point{Props: Props{{Name: "cap", Value: v}}}
}

func (h *history) installs() int { return len(h.probes) }

func firsts(cs []Change) []string {
	var out []string
	for _, c := range cs {
		out = append(out, fmt.Sprintf("%s..%s %s exact=%v", c.Before, c.First, c.Props[0], c.Exact))
	}
	return out
}

// versionBound is the bound on versions run: 4 (k+1) log2 n.
func versionBound(k, n int) int { return int(4 * float64(k+1) * math.Log2(float64(n))) }

func TestBisectFindsEveryChange(t *testing.T) {
	// 473 versions, as npm serves of Claude Code: a cap that doubles at
	// index 150, placement-like flip at 151 (two changes side by side),
	// and changes back at 400.
	h := newHistory(473, "2048", map[int]string{150: "4096", 151: "8192", 400: "2048"})
	pts := Bisect(context.Background(), h.versions, h.probe, BisectOptions{})
	tl := NewTimeline("fake", "all", h.versions, pts)
	want := []string{
		"1.1.49..1.1.50 cap: 2048 → 4096 exact=true",
		"1.1.50..1.1.51 cap: 4096 → 8192 exact=true",
		"1.3.99..1.4.0 cap: 8192 → 2048 exact=true",
	}
	if diff := cmp.Diff(want, firsts(tl.Changes)); diff != "" {
		t.Fatalf("changes mismatch (-want +got):\n%s", diff)
	}
	t.Logf("%d versions run for 3 changes in 473 (bound %d)", h.installs(), versionBound(3, 473))
	if got, max := h.installs(), versionBound(3, 473); got > max {
		t.Errorf("ran %d versions, over the bound 4(k+1)log2(n) = %d", got, max)
	}
	if tl.Ran != h.installs() {
		t.Errorf("timeline says %d versions run, the prober saw %d", tl.Ran, h.installs())
	}
	for v, n := range h.probes {
		if n != 1 {
			t.Errorf("version %s probed %d times without confirmation", v, n)
		}
	}
	if len(tl.Segments) != 4 || tl.Segments[0].Props.Get("cap") != "2048" || tl.Segments[3].From != "1.4.0" {
		t.Errorf("segments: %+v", tl.Segments)
	}
}

func TestBisectNoChangeCostsTheGridOnly(t *testing.T) {
	h := newHistory(473, "4096", nil)
	pts := Bisect(context.Background(), h.versions, h.probe, BisectOptions{})
	tl := NewTimeline("fake", "all", h.versions, pts)
	if len(tl.Changes) != 0 {
		t.Fatalf("changes in a flat history: %v", firsts(tl.Changes))
	}
	if got, want := h.installs(), int(math.Ceil(math.Log2(473)))+1; got != want {
		t.Errorf("ran %d versions, want the %d grid points", got, want)
	}
}

func TestBisectStepsOverVersionsThatCannotRun(t *testing.T) {
	h := newHistory(200, "a", map[int]string{120: "b"})
	for i := 95; i <= 125; i++ {
		if i != 119 { // 119 runs, 120 (the change) does not
			h.broken[i] = true
		}
	}
	pts := Bisect(context.Background(), h.versions, h.probe, BisectOptions{})
	tl := NewTimeline("fake", "all", h.versions, pts)
	if len(tl.Changes) != 1 {
		t.Fatalf("want one change, got %v", firsts(tl.Changes))
	}
	c := tl.Changes[0]
	if c.Before != h.versions[119] || c.First != h.versions[126] || c.Exact {
		t.Errorf("change %+v: want between %s and %s, not exact", c, h.versions[119], h.versions[126])
	}
	t.Logf("note: %s (between %d)", c.Note, c.Between)
	if !strings.Contains(c.Note, "6 versions between, 6 of which could not run") {
		t.Errorf("note %q does not say versions could not run", c.Note)
	}
	for _, p := range pts {
		if !p.Ran() && p.CouldNotRun == "" {
			t.Errorf("point %s neither ran nor says why", p.Version)
		}
	}
	if tl.CouldNotRun == 0 {
		t.Error("no version counted as could not run")
	}
}

func TestBisectChangeAndBackInsideOneGridInterval(t *testing.T) {
	// A change at 10 that reverts at 20, inside the first grid interval
	// of 473 versions (about 53 wide): the default grid cannot see it,
	// a grid of 64 does. This is the documented limit of the method.
	h := newHistory(473, "x", map[int]string{10: "y", 20: "x"})
	tl := NewTimeline("fake", "all", h.versions, Bisect(context.Background(), h.versions, h.probe, BisectOptions{}))
	if len(tl.Changes) != 0 {
		t.Fatalf("default grid saw %v; the test's premise is wrong", firsts(tl.Changes))
	}
	h = newHistory(473, "x", map[int]string{10: "y", 20: "x"})
	tl = NewTimeline("fake", "all", h.versions, Bisect(context.Background(), h.versions, h.probe, BisectOptions{Grid: 64}))
	if len(tl.Changes) != 2 || !tl.Changes[0].Exact || !tl.Changes[1].Exact {
		t.Fatalf("grid 64: want two exact changes, got %v", firsts(tl.Changes))
	}
}

func TestBisectConfirmsAndMarksFlaky(t *testing.T) {
	h := newHistory(100, "a", map[int]string{30: "b", 70: "c"})
	h.flakyAt = 70
	pts := Bisect(context.Background(), h.versions, h.probe, BisectOptions{Confirm: true})
	tl := NewTimeline("fake", "all", h.versions, pts)
	if len(tl.Changes) != 2 {
		t.Fatalf("changes: %v", firsts(tl.Changes))
	}
	if !tl.Changes[0].Confirmed || tl.Changes[0].Flaky {
		t.Errorf("first change %+v: want confirmed", tl.Changes[0])
	}
	if tl.Changes[1].Confirmed || !tl.Changes[1].Flaky || !strings.Contains(tl.Changes[1].Note, "second probe") {
		t.Errorf("second change %+v: want flaky with a note", tl.Changes[1])
	}
	for _, v := range []string{h.versions[29], h.versions[30], h.versions[69], h.versions[70]} {
		if h.probes[v] != 2 {
			t.Errorf("neighbour %s probed %d times, want 2", v, h.probes[v])
		}
	}
}

func TestBisectResumesFromKnownPoints(t *testing.T) {
	h := newHistory(300, "a", map[int]string{77: "b", 211: "c"})
	var saved []Point
	ctx, cancel := context.WithCancel(context.Background())
	n := 0
	Bisect(ctx, h.versions, h.probe, BisectOptions{OnPoint: func(p Point) {
		saved = append(saved, p)
		if n++; n == 6 {
			cancel() // killed after six probes
		}
	}})
	before := h.installs()
	h2 := newHistory(300, "a", map[int]string{77: "b", 211: "c"})
	pts := Bisect(context.Background(), h2.versions, h2.probe, BisectOptions{Known: saved})
	for _, p := range saved {
		if h2.probes[p.Version] != 0 {
			t.Errorf("resumed sweep probed %s again", p.Version)
		}
	}
	tl := NewTimeline("fake", "all", h2.versions, pts)
	if len(tl.Changes) != 2 {
		t.Fatalf("resumed sweep found %v", firsts(tl.Changes))
	}
	whole := newHistory(300, "a", map[int]string{77: "b", 211: "c"})
	Bisect(context.Background(), whole.versions, whole.probe, BisectOptions{})
	if before+h2.installs() != whole.installs() {
		t.Errorf("killed (%d) + resumed (%d) probes = %d, an uninterrupted sweep makes %d", before, h2.installs(), before+h2.installs(), whole.installs())
	}
}

func TestShardMergeEqualsWhole(t *testing.T) {
	h := newHistory(473, "2048", map[int]string{150: "4096", 236: "8192", 400: "2048"})
	whole := NewTimeline("fake", "all", h.versions, Bisect(context.Background(), h.versions, h.probe, BisectOptions{}))
	var parts []*Atlas
	for k := 1; k <= 3; k++ {
		vs, err := Shard(h.versions, k, 3)
		if err != nil {
			t.Fatal(err)
		}
		hk := newHistory(473, "2048", map[int]string{150: "4096", 236: "8192", 400: "2048"})
		tl := NewTimeline("fake", "all", vs, Bisect(context.Background(), vs, hk.probe, BisectOptions{}))
		tl.Released = map[string]string{vs[0]: fmt.Sprintf("2026-0%d-01", k)}
		parts = append(parts, &Atlas{Matrix: "atlas", Properties: []string{"cap"}, Timelines: []Timeline{tl}})
	}
	merged, err := Merge(parts)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(firsts(whole.Changes), firsts(merged.Timelines[0].Changes)); diff != "" {
		t.Errorf("merged shards' changes differ from the whole's (-whole +merged):\n%s", diff)
	}
	if len(merged.Timelines[0].Versions) != 473 {
		t.Errorf("merged versions: %d", len(merged.Timelines[0].Versions))
	}
	if rs := merged.Timelines[0].Released; len(rs) != 3 || rs[h.versions[0]] != "2026-01-01" {
		t.Errorf("merged release dates: %v, want each shard's first", rs)
	}
	if _, err := Shard(h.versions, 4, 3); err == nil {
		t.Error("shard 4/3 accepted")
	}
	if _, err := Merge([]*Atlas{parts[0], {Matrix: "other", Properties: []string{"cap"}}}); err == nil {
		t.Error("atlases of different matrices merged")
	}
}

func TestWrapperNamesTheServerOnlyAsAWord(t *testing.T) {
	r := analyze.Result{First: &analyze.RequestFacts{Placements: []analyze.Placement{{Kind: "system-message", Kept: 10, Wrapper: "Available agent types for the Agent tool … ## lab"}}}}
	if got, want := readWrapper(r), "Available agent types for the Agent tool … ## {name}"; got != want {
		t.Errorf("wrapper %q, want %q", got, want)
	}
}

// TestBisectBoundOnRandomHistories checks the bound, 4 (k+1) log2 n
// versions run, and that every change is found exactly, on 300 synthetic
// histories: 2 to 1,000 versions, 0 to 12 changes at random places (side
// by side, at the ends, several within one grid interval), each to a value
// not seen before, so no change can hide by reverting. Confirmation is on,
// as in a real sweep.
func TestBisectBoundOnRandomHistories(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 473))
	worst := 0.0
	for trial := 0; trial < 300; trial++ {
		n := 2 + rng.IntN(999)
		k := min(rng.IntN(13), n-1)
		changes := map[int]string{}
		for len(changes) < k {
			changes[1+rng.IntN(n-1)] = ""
		}
		var at []int
		for i := range changes {
			at = append(at, i)
		}
		slices.Sort(at)
		var want []string
		h := newHistory(n, "v0", changes)
		for j, i := range at {
			changes[i] = fmt.Sprintf("v%d", j+1)
			want = append(want, fmt.Sprintf("%s..%s cap: v%d → v%d exact=true", h.versions[i-1], h.versions[i], j, j+1))
		}
		pts := Bisect(context.Background(), h.versions, h.probe, BisectOptions{Confirm: true})
		tl := NewTimeline("fake", "all", h.versions, pts)
		if diff := cmp.Diff(want, firsts(tl.Changes)); diff != "" {
			t.Fatalf("n=%d changes at %v: changes mismatch (-want +got):\n%s", n, at, diff)
		}
		// log2 of 2 versions is 1: the bound is never below 4 (k+1).
		if got, max := h.installs(), max(versionBound(k, n), 4*(k+1)); got > max {
			t.Errorf("n=%d k=%d changes at %v: ran %d versions, over the bound 4(k+1)log2(n) = %d", n, k, at, got, max)
		}
		worst = math.Max(worst, float64(h.installs())/float64(max(versionBound(k, n), 4*(k+1))))
	}
	t.Logf("the most any history ran: %.0f%% of its bound", 100*worst)
}

// TestMergedClientsKeepTheirOwnSweeps: atlases of two clients' sweeps
// (one written before timelines named their sweep, one stopped) merge into
// one whose every client section names its own command, date and state.
func TestMergedClientsKeepTheirOwnSweeps(t *testing.T) {
	h := newHistory(40, "2048", map[int]string{20: "4096"})
	tl := NewTimeline("old", "all", h.versions, Bisect(context.Background(), h.versions, h.probe, BisectOptions{}))
	older := &Atlas{Date: "2026-11-30", Command: "instrlab sweep -client old@all -out a", Matrix: "atlas", Properties: []string{"cap"}, Timelines: []Timeline{tl}}
	tl2 := NewTimeline("new", "all", h.versions, Bisect(context.Background(), h.versions, h.probe, BisectOptions{}))
	tl2.Sweep = SweepInfo{Date: "2026-12-01", Command: "instrlab sweep -client new@all -out b", Partial: true}
	stopped := &Atlas{Date: "2026-12-01", Command: tl2.Sweep.Command, Matrix: "atlas", Properties: []string{"cap"}, Partial: true, Timelines: []Timeline{tl2}}
	merged, err := Merge([]*Atlas{stopped, older})
	if err != nil {
		t.Fatal(err)
	}
	merged.Rebase("x")
	want := []SweepInfo{{Date: "2026-12-01", Command: "instrlab sweep -client new@all -out b", Partial: true},
		{Date: "2026-11-30", Command: "instrlab sweep -client old@all -out a"}}
	var got []SweepInfo
	for _, tl := range merged.Timelines {
		got = append(got, tl.Sweep)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("sweeps (-want +got):\n%s", diff)
	}
	var md, page strings.Builder
	if err := merged.Markdown(&md, ""); err != nil {
		t.Fatal(err)
	}
	if err := merged.HTML(&page); err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"Merged from the sweeps named under each client",
		"## new\n\nSwept on 2026-12-01 by `instrlab sweep -client new@all -out b`, **stopped before it finished**",
		"## old\n\nSwept on 2026-11-30 by `instrlab sweep -client old@all -out a`.\n"} {
		if !strings.Contains(md.String(), w) {
			t.Errorf("markdown lacks %q:\n%s", w, md.String())
		}
	}
	for _, w := range []string{"Swept on 2026-11-30 by instrlab sweep -client old@all -out a.", "Swept on 2026-12-01 by instrlab sweep -client new@all -out b, stopped before it finished"} {
		if !strings.Contains(page.String(), w) {
			t.Errorf("page lacks %q", w)
		}
	}
}

// TestBisectFindsChangesBehindVersionsThatCannotRun: the oldest grid
// point cannot run (as opencode 0.1.174 and Gemini 0.1.1 cannot), and a
// change lies between it and the first grid point that runs; likewise at
// the newest end. Every runnable version must be inside the timeline, so
// both changes are found exactly, and the timeline starts at the oldest
// version that runs. Before the fix the bisection started at the first
// runnable grid point and saw neither change.
func TestBisectFindsChangesBehindVersionsThatCannotRun(t *testing.T) {
	// 100 versions, grid 7: grid points 0, 14, 28, 42, 57, 71, 85, 99.
	h := newHistory(100, "a", map[int]string{12: "b", 88: "c"})
	for i := 0; i < 10; i++ {
		h.broken[i] = true // the oldest ten cannot run, 10 and 11 do
	}
	for i := 93; i < 100; i++ {
		h.broken[i] = true // the newest seven cannot run
	}
	pts := Bisect(context.Background(), h.versions, h.probe, BisectOptions{Confirm: true})
	tl := NewTimeline("fake", "all", h.versions, pts)
	want := []string{
		fmt.Sprintf("%s..%s cap: a → b exact=true", h.versions[11], h.versions[12]),
		fmt.Sprintf("%s..%s cap: b → c exact=true", h.versions[87], h.versions[88]),
	}
	if diff := cmp.Diff(want, firsts(tl.Changes)); diff != "" {
		t.Fatalf("changes mismatch (-want +got):\n%s", diff)
	}
	if len(tl.Segments) != 3 || tl.Segments[0].From != h.versions[10] || tl.Segments[2].To != h.versions[92] {
		t.Errorf("segments %+v: want the timeline from %s, the oldest that runs, to %s, the newest", tl.Segments, h.versions[10], h.versions[92])
	}
	// Finding each edge is a bisection too: the bound still holds.
	if got, max := h.installs(), versionBound(2, 100); got > max {
		t.Errorf("ran %d versions, over the bound 4(k+1)log2(n) = %d", got, max)
	}
	t.Logf("%d versions probed (bound %d)", h.installs(), versionBound(2, 100))
}
