package budget

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/instrlab/instrlab/internal/atlas"
	"github.com/instrlab/instrlab/internal/atlas/sweep"
	"github.com/instrlab/instrlab/internal/client"
	"github.com/instrlab/instrlab/internal/client/fakeclient"
	"github.com/instrlab/instrlab/internal/matrix"
)

// TestSweepMeasuresABudget: a sweep with the wait budget measures it on
// each version it probes (Sweeper) and puts it on the timeline as a
// span around the client's own (the fake client at 1.5 s), with its
// evidence.
func TestSweepMeasuresABudget(t *testing.T) {
	exe, _ := os.Executable()
	m := matrix.Atlas()
	m.Rows = m.Rows[:1] // en-1000: the probe row of the budget too
	s := &sweep.Sweep{Out: t.TempDir(), Lab: exe, Jobs: 1, Timeout: 30 * time.Second, Matrix: m, Progress: new(strings.Builder),
		Budgets: []string{Wait}, MeasureBudget: new(Sweeper).Property,
		NewClient: func(spec string) (client.Client, error) {
			sp, err := client.ParseSpec(spec)
			return &fakeclient.Client{Exe: exe, Version: sp.Version, Env: map[string]string{"FAKE_WAIT": "1500ms"}}, err
		}}
	tl, err := s.Timeline(context.Background(), "fake", "1.0.0", []string{"1.0.0"})
	if err != nil || len(tl.Points) != 1 || !tl.Points[0].Ran() {
		t.Fatalf("%v, points %+v", err, tl.Points)
	}
	var w atlas.Prop
	for _, p := range tl.Points[0].Props {
		if p.Name == atlas.BudgetProperty(Wait) {
			w = p
		}
	}
	if w.Span == nil || !(w.Span.Lo < 1.5+0.15 && 1.5-0.15 < w.Span.Hi) || w.Evidence == "" || strings.HasPrefix(w.Evidence, "/") {
		t.Errorf("wait budget %+v, want a span around 1.5 s with its evidence, relative", w)
	}
}

// TestSweepMeasuresACount: a sweep with the deferral threshold puts the
// count on the timeline as its text and its exact bracket, with no timing
// (a count read from what the client sent has no race in it): the fake
// client's 40 tools.
func TestSweepMeasuresACount(t *testing.T) {
	exe, _ := os.Executable()
	m := matrix.Atlas()
	m.Rows = m.Rows[:1]
	s := &sweep.Sweep{Out: t.TempDir(), Lab: exe, Jobs: 1, Timeout: 30 * time.Second, Matrix: m, Progress: new(strings.Builder),
		Budgets: []string{Defer}, MeasureBudget: new(Sweeper).Property,
		NewClient: func(spec string) (client.Client, error) {
			sp, err := client.ParseSpec(spec)
			return &fakeclient.Client{Exe: exe, Version: sp.Version, Env: map[string]string{"FAKE_DEFER_AT": "40"}}, err
		}}
	tl, err := s.Timeline(context.Background(), "fake", "1.0.0", []string{"1.0.0"})
	if err != nil || len(tl.Points) != 1 || !tl.Points[0].Ran() {
		t.Fatalf("%v, points %+v", err, tl.Points)
	}
	var d atlas.Prop
	for _, p := range tl.Points[0].Props {
		if p.Name == atlas.BudgetProperty(Defer) {
			d = p
		}
	}
	if !strings.HasPrefix(d.Value, "defers from 40 tools (not at 39)") || d.Span == nil || *d.Span != (atlas.Span{Lo: 39, Hi: 40, Exact: true}) || d.Timing != "" || d.Evidence == "" {
		t.Errorf("defer budget %+v (span %+v), want defers from 40 tools, the exact span 39-40, no timing, with its evidence", d, d.Span)
	}
}

// TestSweepStartsNear: a sweep measures each version's budget starting
// from the versions next to it (Sweeper, sweep.BudgetRun.Near): the fake
// client takes names of up to 50 characters (60 with its prefix) in
// 1.0.0–1.0.2 and 60 in 1.0.3. The first version probed is searched whole;
// 1.0.2, whose limit did not move, and each confirmation (which starts
// from the version's own first probe) take two runs; every version's
// value is the client's, the change lies between 1.0.2 and 1.0.3. It
// fails if the searches stop starting near (1.0.2 would take up to nine).
func TestSweepStartsNear(t *testing.T) {
	exe, _ := os.Executable()
	m := matrix.Atlas()
	m.Rows = m.Rows[:1]
	progress := new(strings.Builder)
	s := &sweep.Sweep{Out: t.TempDir(), Lab: exe, Jobs: 1, Timeout: 30 * time.Second, Matrix: m, Progress: progress, Confirm: true,
		Budgets: []string{NameLength}, MeasureBudget: new(Sweeper).Property,
		NewClient: func(spec string) (client.Client, error) {
			sp, err := client.ParseSpec(spec)
			limit := "60"
			if sp.Version == "1.0.3" {
				limit = "70"
			}
			return &fakeclient.Client{Exe: exe, Version: sp.Version, Env: map[string]string{"FAKE_NAME_MAX": limit, "FAKE_NAME_PAST": "drop"}}, err
		}}
	tl, err := s.Timeline(context.Background(), "fake", "all", []string{"1.0.0", "1.0.1", "1.0.2", "1.0.3"})
	if err != nil {
		t.Fatal(err)
	}
	// The runs of each probe, in order: "fake@V: running (attempt N)",
	// then a line per budget run "fake@V name: set ...".
	runs := map[string]int{}
	probe := ""
	for line := range strings.Lines(progress.String()) {
		if v, attempt, ok := strings.Cut(strings.TrimSpace(line), ": running (attempt "); ok {
			probe = strings.TrimPrefix(v, "fake@") + "/" + strings.TrimSuffix(attempt, ")")
		}
		if strings.Contains(line, " "+NameLength+": set ") {
			runs[probe]++
		}
	}
	want := map[string]struct {
		value string
		runs  int
	}{"1.0.2/1": {"50", 2}, "1.0.2/2": {"50", 2}, "1.0.3/2": {"60", 2}}
	for _, p := range tl.Points {
		key := fmt.Sprintf("%s/%d", p.Version, p.Attempt)
		var got atlas.Prop
		for _, q := range p.Props {
			if q.Name == atlas.BudgetProperty(NameLength) {
				got = q
			}
		}
		limit := 50.0
		if p.Version == "1.0.3" {
			limit = 60
		}
		if got.Span == nil || got.Span.Lo != limit || got.Span.Hi != limit+1 {
			t.Errorf("%s: name budget %+v, want %v exactly", key, got, limit)
		}
		if w, ok := want[key]; ok && runs[key] != w.runs {
			t.Errorf("%s: %d runs, want %d (from its neighbour)", key, runs[key], w.runs)
		}
	}
	t.Logf("runs %v", runs)
	if runs["1.0.0/1"] < 5 {
		t.Errorf("1.0.0, the first version probed, took %d runs: nothing to start from, it should search the whole range", runs["1.0.0/1"])
	}
	if len(tl.Changes) != 1 || tl.Changes[0].First != "1.0.3" {
		t.Errorf("changes %+v, want one at 1.0.3\n%s", tl.Changes, progress)
	}
}
