package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/instrlab/instrlab/internal/fakeapi"
	"github.com/instrlab/instrlab/internal/matrix"
	"github.com/instrlab/instrlab/internal/matrix/analyze"
	"github.com/instrlab/instrlab/internal/surface"
)

// TestE2EClaudeCodeModels runs a row of instructions and a described tool
// on Claude Code 2.1.332 in its
// default arm (its default model, Opus 5.5) and in arm model-claude-3-7
// (claude-3-7-sonnet-20250219), offline: the model decides both where the
// instructions go and whether the server's tools are deferred (measured
// 2026-12-06: a role "system" message and names only behind ToolSearch
// with the default; the first user turn and every tool defined whole with
// the claude-3 model, which its code lists as without tool search). A test
// that ignored the model would see one of them twice. INSTRLAB_E2E=1 only.
func TestE2EClaudeCodeModels(t *testing.T) {
	if os.Getenv("INSTRLAB_E2E") != "1" {
		t.Skip("set INSTRLAB_E2E=1 to run Claude Code end to end (npm install on first use)")
	}
	// The seed's prompt and model (opus, which the arm's model replaces),
	// one row with instructions and a described tool.
	m := filepath.Join(t.TempDir(), "models.matrix.json")
	if err := os.WriteFile(m, []byte(`{"name": "models", "repeats": 1, "model": "opus", "max_turns": 1,
  "prompt": "Do not call any tools. Reply with the word DONE.",
  "rows": [{"name": "en-1000-tool-1000", "label": "1,000 characters of instructions, lookup_part described in 500 Japanese characters",
    "instr": "ascii:1000", "tool_description": "japanese:500"}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	results := runE2E(t, "-client", "claude-code@2.1.332", "-matrix", m,
		"-arms", "default,model-claude-3-7", "-lab", binary, "-j", "2", "-timeout", "3m")
	if len(results) != 2 {
		t.Fatalf("%d results, want 2", len(results))
	}
	for _, r := range results {
		if r.Status != analyze.StatusOK {
			t.Fatalf("%s: %s", r.Who(), r.Reason)
		}
		old := r.Arm.Name == "model-claude-3-7"
		if old != (r.Arm.Model == "claude-3-7-sonnet-20250219") {
			t.Errorf("%s: arm model %q", r.Who(), r.Arm.Model)
		}
		best := r.First.Best()
		if best == nil || !best.Full {
			t.Fatalf("%s: the text did not reach the first request whole: %+v", r.Who(), best)
		}
		wantKind := map[bool]fakeapi.Kind{true: fakeapi.KindUserTurn, false: fakeapi.KindSystemMessage}[old]
		wantVia := map[bool]string{true: analyze.ViaDefinition, false: analyze.ViaNameOnly}[old]
		if best.Kind != wantKind {
			t.Errorf("%s: instructions in %s (%s), want %s", r.Who(), best.Kind, best.Path, wantKind)
		}
		if len(r.Tools) == 0 {
			t.Fatalf("%s: no tool facts", r.Who())
		}
		for _, f := range r.Tools {
			if f.Via != wantVia {
				t.Errorf("%s: tool %s reached the model as %q, want %q", r.Who(), f.Name, f.Via, wantVia)
			}
		}
	}
}

// TestE2EClaudeCodeApproval runs the surface-approval row on Claude Code
// 2.1.332 pre-approved (its default arm, --allowed-tools mcp__lab) and in
// arm approval-default (-p, nothing allowed): every call of the meta
// group's seven tools runs in the first; in the second none reaches the
// server and the model is told each was not granted, read as refused,
// never as a call not made. INSTRLAB_E2E=1 only.
func TestE2EClaudeCodeApproval(t *testing.T) {
	if os.Getenv("INSTRLAB_E2E") != "1" {
		t.Skip("set INSTRLAB_E2E=1 to run Claude Code end to end (npm install on first use)")
	}
	results := runE2E(t, "-client", "claude-code@2.1.332", "-matrix", "surface", "-row", matrix.ApprovalRow, "-repeats", "1",
		"-arms", "default,approval-default", "-lab", binary, "-j", "2", "-timeout", "3m")
	if len(results) != 2 {
		t.Fatalf("%d results, want 2", len(results))
	}
	for _, r := range results {
		if r.Status != analyze.StatusOK || r.Surface == nil {
			t.Fatalf("%s: %s (surface %v)", r.Who(), r.Reason, r.Surface != nil)
		}
		refused := r.Arm.Approval == "default"
		if len(r.Surface.Calls) != 7 || len(r.Surface.NotCalled) != 0 {
			t.Errorf("%s: %d calls, %v not called, want the 7 made", r.Who(), len(r.Surface.Calls), r.Surface.NotCalled)
		}
		for _, c := range r.Surface.Calls {
			want := map[bool]string{true: surface.FateRefused, false: surface.FateRan}[refused]
			told := strings.HasPrefix(c.Instead, "Claude requested permissions to use "+c.Name)
			if c.Fate() != want || told != refused {
				t.Errorf("%s: %s: %s, the model got %q instead; want %s", r.Who(), c.Tool, c.Fate(), c.Instead, want)
			}
		}
	}
}
