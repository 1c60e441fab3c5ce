package budget

import (
	"context"
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
// each version it probes (AtlasProperty) and puts it on the timeline as a
// span around the client's own (the fake client at 1.5 s), with its
// evidence.
func TestSweepMeasuresABudget(t *testing.T) {
	exe, _ := os.Executable()
	m := matrix.Atlas()
	m.Rows = m.Rows[:1] // en-1000: the probe row of the budget too
	s := &sweep.Sweep{Out: t.TempDir(), Lab: exe, Jobs: 1, Timeout: 30 * time.Second, Matrix: m, Progress: new(strings.Builder),
		Budgets: []string{Wait}, MeasureBudget: AtlasProperty,
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
		Budgets: []string{Defer}, MeasureBudget: AtlasProperty,
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
