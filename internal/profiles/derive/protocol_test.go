package derive

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/instrlab/instrlab/internal/client/clients"
	"github.com/instrlab/instrlab/internal/labvocab"
	"github.com/instrlab/instrlab/internal/matrix"
	"github.com/instrlab/instrlab/internal/matrix/analyze"
	"github.com/instrlab/instrlab/internal/profiles"
	"github.com/instrlab/instrlab/internal/surface"
)

// TestDeriveProtocol: the protocol row's runs make one fact per feature,
// in the words of surface.ProtocolLines; a feature whose runs disagree
// varies, with each run's; a failed run is counted and measures nothing;
// no run, no protocol.
func TestDeriveProtocol(t *testing.T) {
	facts := func(relisted bool) *analyze.SurfaceFacts {
		return &analyze.SurfaceFacts{Protocol: &surface.ProtocolFacts{Declared: []string{"roots"},
			Asks:    []surface.AskFact{{Method: "roots/list", Answer: surface.AskResult}},
			Changed: &surface.ListFact{Relisted: relisted}}}
	}
	row := matrix.Row{Name: matrix.ProtocolRow}
	runs := []run{
		{Result: analyze.Result{Status: analyze.StatusOK, Surface: facts(true)}, Row: row},
		{Result: analyze.Result{Status: analyze.StatusOK, Surface: facts(false)}, Row: row},
		{Result: analyze.Result{Status: "failed", Reason: "timed out"}, Row: row},
	}
	others, proto := protocolRuns(append(runs, run{Row: matrix.Row{Name: "en-1000"}}))
	if len(others) != 1 || len(proto) != 3 {
		t.Fatalf("protocolRuns: %d others, %d protocol runs", len(others), len(proto))
	}
	p := deriveProtocol(proto, nil)
	if p == nil || p.Runs != 3 || p.Failed != 1 || p.Ended != "timed out" {
		t.Fatalf("protocol %+v", p)
	}
	get := func(feature string) profiles.ProtocolFact { f, _ := p.Fact(feature); return f }
	if f := get(labvocab.FeatureDeclared); f.Does != "roots" {
		t.Errorf("declared: %+v", f)
	}
	if f := get(labvocab.FeatureRoots); f.Does != surface.AskResult {
		t.Errorf("roots: %+v", f)
	}
	if f := get(labvocab.FeatureListChanged); f.Does != profiles.FateVaries || !slices.Equal(f.Held, []string{labvocab.DoesRelists, labvocab.DoesNoRelist}) {
		t.Errorf("tools/list_changed, relisted in one run of two: %+v", f)
	}
	if p.Modern != nil {
		t.Errorf("modern facts without a run of the dual row: %+v", p.Modern)
	}
	// The dual row: a client that spoke 2026-07-28 there makes Modern;
	// one that spoke the 2025 era adds nothing.
	modern := facts(true)
	modern.Protocol.Modern = true
	modern.Protocol.Asks[0].Via = surface.ViaInputRequired
	dual := matrix.Row{Name: matrix.ProtocolModernRow}
	p = deriveProtocol(append(runs, run{Result: analyze.Result{Status: analyze.StatusOK, Surface: modern}, Row: dual},
		run{Result: analyze.Result{Status: analyze.StatusOK, Surface: facts(false)}, Row: dual}), nil)
	if len(p.Modern) == 0 || p.Modern[1].Feature != labvocab.FeatureRoots || p.Modern[1].Does != labvocab.DoesInputRequired+surface.AskResult {
		t.Errorf("modern facts %+v", p.Modern)
	}
	if f := get(labvocab.FeatureRoots); f.Does != surface.AskResult {
		t.Errorf("the 2025 era's roots after a dual run: %+v", f)
	}
	// The HTTP row's runs make HTTP, and change neither era's facts.
	overHTTP := run{Result: analyze.Result{Status: analyze.StatusOK, Surface: facts(false)}, Row: matrix.Row{Name: matrix.ProtocolHTTPRow}}
	if _, proto := protocolRuns([]run{overHTTP}); len(proto) != 1 {
		t.Fatal("protocolRuns: the HTTP row's run is not a protocol run")
	}
	p = deriveProtocol(append(runs, overHTTP), nil)
	if len(p.HTTP) != 6 || p.HTTP[4].Feature != labvocab.FeatureListChanged || p.HTTP[4].Does != labvocab.DoesNoRelist ||
		p.HTTP[5].Feature != labvocab.FeatureTurn || p.HTTP[5].Does != labvocab.DoesTurnEnds {
		t.Errorf("http facts %+v", p.HTTP)
	}
	if f := get(labvocab.FeatureListChanged); f.Does != profiles.FateVaries {
		t.Errorf("stdio's tools/list_changed after an HTTP run: %+v", f)
	}
	// The dual row over HTTP makes ModernHTTP where the client spoke
	// 2026-07-28 there, and nothing where it did not.
	dualHTTP := matrix.Row{Name: matrix.ProtocolModernHTTPRow}
	p = deriveProtocol(append(runs, run{Result: analyze.Result{Status: analyze.StatusOK, Surface: modern}, Row: dualHTTP}), nil)
	if len(p.ModernHTTP) == 0 || p.ModernHTTP[1].Does != labvocab.DoesInputRequired+surface.AskResult || p.Modern != nil {
		t.Errorf("the dual row over HTTP: modern_http %+v, modern %+v", p.ModernHTTP, p.Modern)
	}
	if p = deriveProtocol(append(runs, run{Result: analyze.Result{Status: analyze.StatusOK, Surface: facts(false)}, Row: dualHTTP}), nil); p.ModernHTTP != nil {
		t.Errorf("a client that spoke the 2025 era to the dual row over HTTP: %+v", p.ModernHTTP)
	}
	if deriveProtocol(nil, nil) != nil {
		t.Error("a protocol from no run")
	}
}

// TestDeriveProtocolHung reads a real run of the dual row that never
// ended (Copilot CLI 1.0.102, 2026-12-07 15:12: it retried the calls whose
// input_required results asked for elicitation, never those that asked for
// sampling and roots, and made no model request after; timed out at 3 min;
// its process log without DEBUG lines): it counts as failed and still gives
// the modern facts its lab log holds whole, and its turn. The same run
// read as ended gives its turn as ended, and a run that failed otherwise
// gives no facts.
func TestDeriveProtocolHung(t *testing.T) {
	res, err := analyze.Run(filepath.Join("testdata", "copilot-dual-hung"), clients.New)
	if err != nil {
		t.Fatal(err)
	}
	r := run{Result: res, Row: matrix.Row{Name: matrix.ProtocolModernRow}}
	p := deriveProtocol([]run{r}, nil)
	if p == nil || p.Failed != 1 || p.Ended != "timed out after 3m0s" {
		t.Fatalf("protocol %+v", p)
	}
	want := []profiles.ProtocolFact{
		{Feature: labvocab.FeatureDeclared, Does: "elicitation.form, elicitation.url, sampling"},
		{Feature: labvocab.FeatureElicitForm, Does: labvocab.DoesInputRequired + "decline"},
		{Feature: labvocab.FeatureElicitURL, Does: labvocab.DoesInputRequired + "decline"},
		{Feature: labvocab.FeatureSampling, Does: labvocab.DoesInputRequired + labvocab.DoesNoAnswer},
		{Feature: labvocab.FeatureRoots, Does: labvocab.DoesInputRequired + labvocab.DoesNoAnswer},
		{Feature: labvocab.FeatureTurn, Does: labvocab.DoesTurnNeverEnds + "; no answer to sampling, roots/list"},
	}
	if diff := cmp.Diff(want, p.Modern); diff != "" {
		t.Errorf("modern facts of a hung run (-want +got):\n%s", diff)
	}
	if p.Facts != nil || p.HTTP != nil {
		t.Errorf("a dual run made other eras' facts: %+v, %+v", p.Facts, p.HTTP)
	}

	ended := r
	ended.Status, ended.Reason = analyze.StatusOK, ""
	if f, _ := deriveProtocol([]run{ended}, nil).FactIn(true, labvocab.FeatureTurn); f.Does != labvocab.DoesTurnEnds {
		t.Errorf("the turn of a run that ended: %+v", f)
	}
	// With one run that ended beside it, the turn varies and what only
	// the ended run tells (what reached the model) varies too.
	mixed := deriveProtocol([]run{r, ended}, nil)
	if f, _ := mixed.FactIn(true, labvocab.FeatureTurn); f.Does != profiles.FateVaries || !slices.Equal(f.Held, []string{want[5].Does, labvocab.DoesTurnEnds}) {
		t.Errorf("turn of a hung and an ended run: %+v", f)
	}
	crashed := r
	crashed.Reason = "exit status 1"
	if p := deriveProtocol([]run{crashed}, nil); p.Failed != 1 || p.Modern != nil {
		t.Errorf("a run that failed otherwise: %+v", p)
	}
}

// TestProfilesFromHungRunsAndEarlier: a client whose every new run failed
// as its row measures (Copilot CLI's runs of the dual rows, which time out)
// is profiled on top of its earlier evidence, the hung runs' facts in
// their place; without earlier evidence, failures alone make no profile.
func TestProfilesFromHungRunsAndEarlier(t *testing.T) {
	x, err := ReadExcerpt(t.Context(), "../data/evidence/copilot@1.0.102.json")
	if err != nil {
		t.Fatal(err)
	}
	earlier := *x
	earlier.Results = nil
	var hungRuns []analyze.Result
	for _, r := range x.Results {
		if r.Status != analyze.StatusOK && protocolRow(x.Rows[r.Dir]) {
			hungRuns = append(hungRuns, r)
			continue
		}
		earlier.Results = append(earlier.Results, r)
	}
	if len(hungRuns) != 6 {
		t.Fatalf("%d failed protocol runs in the excerpt, want Copilot CLI's 6 (the dual rows and the asks row, twice each)", len(hungRuns))
	}
	ps, err := Profiles(hungRuns, Options{Ref: "x", Evidence: x, Earlier: func(string) (*Excerpt, error) { return &earlier, nil }})
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) != 1 || ps[0].Protocol == nil || ps[0].Protocol.Failed != 6 {
		t.Fatalf("profiles %+v", ps)
	}
	if f, _ := ps[0].Protocol.AloneFact(labvocab.FeatureSampling); f.Does != labvocab.DoesAloneNeverEnds {
		t.Errorf("sampling alone %+v, want %q", f, labvocab.DoesAloneNeverEnds)
	}
	for _, facts := range [][]profiles.ProtocolFact{ps[0].Protocol.Modern, ps[0].Protocol.ModernHTTP} {
		if f, _ := factIn(facts, labvocab.FeatureTurn); !strings.HasPrefix(f.Does, labvocab.DoesTurnNeverEnds) {
			t.Errorf("turn %+v in %+v", f, facts)
		}
	}
	if ps, err := Profiles(hungRuns, Options{Ref: "x", Evidence: x}); err != nil || len(ps) != 0 {
		t.Errorf("failures alone: %d profiles, %v; want none", len(ps), err)
	}
}

func factIn(facts []profiles.ProtocolFact, feature string) (profiles.ProtocolFact, bool) {
	return (&profiles.Protocol{Facts: facts}).Fact(feature)
}

// TestDeriveProtocolAlone: a real run of the protocol-asks row by Copilot
// CLI 1.0.102 (2026-12-07), each ask alone in a turn of its own over
// 2026-07-28: its turn goes on after either elicitation and never after
// the sampling ask (the run timed out), so the roots ask, called after,
// is not measured. Without the sampling call's result, or with the run
// ended, the same fixture reads otherwise; a run that did not speak
// 2026-07-28 makes no Alone.
func TestDeriveProtocolAlone(t *testing.T) {
	res, err := analyze.Run(filepath.Join("testdata", "copilot-asks-hung"), clients.New)
	if err != nil {
		t.Fatal(err)
	}
	r := run{Result: res, Row: matrix.Row{Name: matrix.ProtocolAsksRow}}
	p := deriveProtocol([]run{r}, nil)
	if p == nil || p.Failed != 1 {
		t.Fatalf("protocol %+v", p)
	}
	want := []profiles.ProtocolFact{
		{Feature: labvocab.FeatureElicitForm, Does: labvocab.DoesAloneGoesOn},
		{Feature: labvocab.FeatureElicitURL, Does: labvocab.DoesAloneGoesOn},
		{Feature: labvocab.FeatureSampling, Does: labvocab.DoesAloneNeverEnds},
	}
	if diff := cmp.Diff(want, p.Alone); diff != "" {
		t.Errorf("alone (-want +got):\n%s", diff)
	}
	if p.Modern != nil || p.Facts != nil {
		t.Errorf("the asks row made other facts: %+v, %+v", p.Modern, p.Facts)
	}

	// The same run, ended: the sampling call's result never reached the
	// model, and the turn ended without it.
	ended := r
	ended.Status, ended.Reason = analyze.StatusOK, ""
	if f, _ := deriveProtocol([]run{ended}, nil).AloneFact(labvocab.FeatureSampling); f.Does != labvocab.DoesAloneEnds {
		t.Errorf("sampling in a run that ended: %+v", f)
	}
	// Both: the fact varies, with each run's words.
	if f, _ := deriveProtocol([]run{r, ended}, nil).AloneFact(labvocab.FeatureSampling); f.Does != profiles.FateVaries ||
		!slices.Equal(f.Held, []string{labvocab.DoesAloneNeverEnds, labvocab.DoesAloneEnds}) {
		t.Errorf("sampling in a hung and an ended run: %+v", f)
	}
	// A sampling call that never reached the server: not measured.
	unreached := r
	s := *r.Surface
	s.Calls = slices.Clone(s.Calls)
	for i := range s.Calls {
		if s.Calls[i].Tool == labvocab.ProtocolSample {
			s.Calls[i].Reached = false
		}
	}
	unreached.Surface = &s
	if f, ok := deriveProtocol([]run{unreached}, nil).AloneFact(labvocab.FeatureSampling); ok {
		t.Errorf("an ask never made has a fact: %+v", f)
	}
	// A client that spoke 2025-11-25 to the row: no Alone.
	legacy := r
	pf := *s.Protocol
	pf.Modern = false
	ls := *r.Surface
	ls.Protocol = &pf
	legacy.Surface = &ls
	if p := deriveProtocol([]run{legacy}, nil); p.Alone != nil {
		t.Errorf("a run over 2025-11-25 made Alone: %+v", p.Alone)
	}
}
