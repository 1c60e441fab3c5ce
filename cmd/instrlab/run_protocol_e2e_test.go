package main

import (
	"os"
	"slices"
	"testing"

	"github.com/instrlab/instrlab/internal/matrix/analyze"
	"github.com/instrlab/instrlab/internal/surface"
	"github.com/instrlab/instrlab/lab"
)

// TestE2EClaudeCodeProtocol runs the protocol matrix on Claude Code
// 2.1.332, offline, and reads in the captured evidence what it did with
// what the lab asked and announced (measured 2026-12-06): it declares
// elicitation in both modes and cancels both headless, answers sampling
// with -32601 and roots/list with its working directory, lists the tools
// again at tools/list_changed and offers the added tool, which the model
// then calls, and never offers the app-only tool. INSTRLAB_E2E=1 only.
func TestE2EClaudeCodeProtocol(t *testing.T) {
	if os.Getenv("INSTRLAB_E2E") != "1" {
		t.Skip("set INSTRLAB_E2E=1 to run Claude Code end to end (npm install on first use)")
	}
	results := runE2E(t, "-client", "claude-code@2.1.332", "-matrix", "protocol", "-lab", binary, "-timeout", "3m")
	if len(results) != 1 || results[0].Status != analyze.StatusOK || results[0].Surface == nil || results[0].Surface.Protocol == nil {
		t.Fatalf("results: %+v", results)
	}
	s := results[0].Surface
	p := s.Protocol
	for _, want := range []string{"elicitation.form", "elicitation.url", "roots.listChanged"} {
		if !slices.Contains(p.Declared, want) {
			t.Errorf("declared %v, want %s among them", p.Declared, want)
		}
	}
	var answers []string
	for _, a := range p.Asks {
		answers = append(answers, a.Summary())
	}
	slices.Sort(answers)
	if want := []string{"elicitation form: cancel", "elicitation url: cancel", "roots/list: result", "sampling: error -32601"}; !slices.Equal(answers, want) {
		t.Errorf("answers %q, want %q", answers, want)
	}
	if c := p.Changed; c == nil || !c.Relisted || c.Offered == 0 {
		t.Errorf("after tools/list_changed: %+v", c)
	}
	called := func(tool string) bool {
		return slices.ContainsFunc(s.Calls, func(c surface.CallFacts) bool { return c.Tool == tool && c.Reached })
	}
	if !called(lab.ProtocolAddedTool) || called(lab.ProtocolAppOnly) {
		t.Errorf("called the added tool %v, the app-only tool %v; want true, false", called(lab.ProtocolAddedTool), called(lab.ProtocolAppOnly))
	}
}
