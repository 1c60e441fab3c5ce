package derive

import (
	"slices"
	"testing"

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
	if len(p.HTTP) != 5 || p.HTTP[4].Feature != labvocab.FeatureListChanged || p.HTTP[4].Does != labvocab.DoesNoRelist {
		t.Errorf("http facts %+v", p.HTTP)
	}
	if f := get(labvocab.FeatureListChanged); f.Does != profiles.FateVaries {
		t.Errorf("stdio's tools/list_changed after an HTTP run: %+v", f)
	}
	if deriveProtocol(nil, nil) != nil {
		t.Error("a protocol from no run")
	}
}
