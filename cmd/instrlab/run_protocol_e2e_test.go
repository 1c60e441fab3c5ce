package main

import (
	"os"
	"slices"
	"testing"

	"github.com/instrlab/instrlab/internal/labvocab"
	"github.com/instrlab/instrlab/internal/matrix"
	"github.com/instrlab/instrlab/internal/matrix/analyze"
	"github.com/instrlab/instrlab/internal/surface"
)

// TestE2EClaudeCodeProtocol runs the protocol matrix on Claude Code
// 2.1.332, offline, and reads in the captured evidence what it did with
// what the lab asked and announced (measured 2026-12-06): it declares
// elicitation in both modes and cancels both headless, answers sampling
// with -32601 and roots/list with its working directory, lists the tools
// again at tools/list_changed and offers the added tool, which the model
// then calls, and never offers the app-only tool; from a server of both
// eras it speaks 2026-07-28 and answers the same asks in its retries of
// input_required results, all but sampling; over Streamable HTTP it does
// as over stdio in both (measured 2026-12-07); asked each alone, its turn
// goes on after every ask. INSTRLAB_E2E=1 only.
func TestE2EClaudeCodeProtocol(t *testing.T) {
	if os.Getenv("INSTRLAB_E2E") != "1" {
		t.Skip("set INSTRLAB_E2E=1 to run Claude Code end to end (npm install on first use)")
	}
	results := runE2E(t, "-client", "claude-code@2.1.332", "-matrix", "protocol", "-lab", binary, "-timeout", "3m")
	if n := len(matrix.Protocol().Rows); len(results) != n {
		t.Fatalf("%d results, want one per row (%d)", len(results), n)
	}
	for _, r := range results {
		if r.Status != analyze.StatusOK || r.Surface == nil || r.Surface.Protocol == nil {
			t.Fatalf("%s: %+v", r.Who(), r)
		}
		s := r.Surface
		p := s.Protocol
		for _, want := range []string{"elicitation.form", "elicitation.url", "roots.listChanged"} {
			if !slices.Contains(p.Declared, want) {
				t.Errorf("%s: declared %v, want %s among them", r.Who(), p.Declared, want)
			}
		}
		var answers []string
		for _, a := range p.Asks {
			answers = append(answers, a.Summary())
		}
		slices.Sort(answers)
		called := func(tool string) bool {
			return slices.ContainsFunc(s.Calls, func(c surface.CallFacts) bool { return c.Tool == tool && c.Reached })
		}
		if called(labvocab.ProtocolAppOnly) {
			t.Errorf("%s: the app-only tool was called", r.Who())
		}
		if r.Row == matrix.ProtocolAsksRow {
			// Each ask alone over 2026-07-28: the same answers, and the
			// model gets each call's result (its turn goes on).
			for _, a := range labvocab.ProtocolAsks {
				k := slices.IndexFunc(s.Calls, func(c surface.CallFacts) bool { return c.Tool == a.Tool && c.Reached })
				if k < 0 || s.Calls[k].Following == 0 {
					t.Errorf("%s: %s alone: call %v, want its result in a later request", r.Who(), a.Tool, k >= 0)
				}
			}
		}
		if r.Row == matrix.ProtocolModernRow || r.Row == matrix.ProtocolModernHTTPRow || r.Row == matrix.ProtocolAsksRow {
			// Over 2026-07-28: the asks in input_required results, the
			// retries answering all but sampling. tools/list_changed on its
			// subscriptions/listen stream: measured twice since the lab
			// names the stream by the client's id (TestSubscriptionIDs),
			// not asserted here yet.
			want := []string{"elicitation form: cancel", "elicitation url: cancel", "roots/list: result", "sampling: no answer"}
			if !p.Modern || !slices.Equal(answers, want) {
				t.Errorf("%s: modern %v, answers %q, want %q", r.Who(), p.Modern, answers, want)
			}
			continue
		}
		if want := []string{"elicitation form: cancel", "elicitation url: cancel", "roots/list: result", "sampling: error -32601"}; !slices.Equal(answers, want) {
			t.Errorf("%s: answers %q, want %q", r.Who(), answers, want)
		}
		if c := p.Changed; c == nil || !c.Relisted || c.Offered == 0 {
			t.Errorf("%s: after tools/list_changed: %+v", r.Who(), c)
		}
		if !called(labvocab.ProtocolAddedTool) {
			t.Errorf("%s: the added tool was not called", r.Who())
		}
	}
}
