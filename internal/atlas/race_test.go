package atlas

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/instrlab/instrlab/internal/evidence"
	"github.com/instrlab/instrlab/internal/matrix"
	"github.com/instrlab/instrlab/internal/matrix/analyze"
)

// raceVersions are the Claude Code versions of testdata/race: the first
// probes of the sweep of 2026-12-01 (load average 10 to 40) around the
// three change points it marked flaky. From 2.1.142 the client waits
// about 2 s for a server still connecting; on that machine the lab took
// longer, so 2.1.145, 2.1.150 and 2.1.152 reported it "pending" and sent
// their first request without its text although it had answered before
// (trimmed with testdata/race/trim.py from the committed atlas/).
var raceVersions = []string{"2.1.144", "2.1.145", "2.1.150", "2.1.152", "2.1.153"}

// racePoint reads the properties of one version from its trimmed runs,
// as the sweep reads a version's runs.
func racePoint(t *testing.T, m *matrix.Matrix, version string) (Point, []analyze.Result) {
	t.Helper()
	dir := filepath.Join("testdata", "race", "claude-code@"+version)
	var results []analyze.Result
	for _, r := range m.Rows {
		res, err := analyze.ReadResult(string(evidence.OutDir(dir).Run("", r.Name, 1)))
		if err != nil {
			t.Fatal(err)
		}
		results = append(results, res)
	}
	props, err := Properties(m, results, func(d string) string { return d })
	if err != nil {
		t.Fatalf("%s: %v", version, err)
	}
	return Point{Version: version, Attempt: 1, Props: props}, results
}

// TestLostRacesAreNeverChangePoints: the runs that lost the race are
// marked timing-sensitive, and the timeline over them has no change point,
// only races, where the sweep that recorded them found three.
func TestLostRacesAreNeverChangePoints(t *testing.T) {
	m := matrix.Atlas()
	var points []Point
	sensitive := map[string]bool{}
	for _, v := range raceVersions {
		p, results := racePoint(t, m, v)
		points = append(points, p)
		for _, r := range results {
			if r.Timing.Sensitive {
				sensitive[v+" "+r.Row] = true
			}
		}
	}
	for _, want := range []string{"2.1.145 en-1000", "2.1.150 en-1000", "2.1.152 en-1000", "2.1.152 en-6000", "2.1.152 en-1000-dual"} {
		if !sensitive[want] {
			t.Errorf("%s lost the race (client status pending, server ready before the first request) but is not timing-sensitive", want)
		}
	}
	for _, won := range []string{"2.1.144 en-1000", "2.1.144 en-6000", "2.1.153 en-1000", "2.1.153 en-6000"} {
		if sensitive[won] {
			t.Errorf("%s had the server's text in its first request, ready well before it, yet is marked timing-sensitive", won)
		}
	}
	tl := NewTimeline("claude-code", "2.1.144..2.1.153", raceVersions, points)
	if len(tl.Changes) != 0 {
		t.Errorf("change points from races: %+v", tl.Changes)
	}
	var got []string
	for _, r := range tl.Races {
		var names []string
		for _, p := range r.Props {
			names = append(names, p.Name)
			if p.Timing == "" {
				t.Errorf("race %s→%s %s says no why", r.Before, r.First, p.Name)
			}
		}
		got = append(got, r.Before+"→"+r.First+" "+strings.Join(names, ","))
	}
	want := []string{
		"2.1.144→2.1.145 uses,placement,wrapper",
		"2.1.150→2.1.152 cap,marker,dual-era",
		"2.1.152→2.1.153 uses,placement,wrapper,cap,marker,dual-era",
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("races mismatch (-want +got):\n%s", d)
	}
	if len(tl.Segments) != 1 {
		t.Errorf("the versions fall into %d segments, want one: a race does not cut a segment", len(tl.Segments))
	}
}

// TestRaceDoesNotHideARealChange: a timing-sensitive value on one side
// does not hide another property that changed for good.
func TestRaceDoesNotHideARealChange(t *testing.T) {
	a := Props{{Name: "uses", Value: "yes"}, {Name: "cap", Value: "2048 characters"}}
	b := Props{{Name: "uses", Value: "no", Timing: "lost"}, {Name: "cap", Value: "4096 characters"}}
	tl := NewTimeline("c", "all", []string{"1", "2"}, []Point{{Version: "1", Attempt: 1, Props: a}, {Version: "2", Attempt: 1, Props: b}})
	if len(tl.Changes) != 1 || len(tl.Changes[0].Props) != 1 || tl.Changes[0].Props[0].Name != "cap" {
		t.Errorf("changes = %+v, want the cap's alone", tl.Changes)
	}
	if len(tl.Races) != 1 || tl.Races[0].Props[0].Name != "uses" {
		t.Errorf("races = %+v, want uses", tl.Races)
	}
}

// TestRepeatsThatDisagreeGiveARate: a row run five times that put the
// text in the first request three times reads as a rate, timing-sensitive.
func TestRepeatsThatDisagreeGiveARate(t *testing.T) {
	m := &matrix.Matrix{Rows: []matrix.Row{{Name: "en-1000"}}}
	var results []analyze.Result
	for i := 1; i <= 5; i++ {
		r := analyze.Result{Row: "en-1000", Repeat: i, Status: "ok", Dir: "d", First: &analyze.RequestFacts{}}
		if i != 2 && i != 4 {
			r.First.Placements = []analyze.Placement{{Kept: 1000, Full: true}}
		}
		results = append(results, r)
	}
	props, err := Properties(m, results, func(d string) string { return d })
	if err != nil {
		t.Fatal(err)
	}
	uses := props.Find("uses")
	if uses.Value != "yes 3 of 5; no 2 of 5" || uses.Timing == "" {
		t.Errorf("uses = %+v, want the rate yes 3 of 5; no 2 of 5, timing-sensitive", uses)
	}
}
