package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/instrlab/instrlab/internal/client/claudecode"
	"github.com/instrlab/instrlab/internal/client/codex"
	"github.com/instrlab/instrlab/internal/client/qwen"
	"github.com/instrlab/instrlab/internal/matrix"
	"github.com/instrlab/instrlab/internal/profiles"
	"github.com/instrlab/instrlab/internal/report"
)

// toolDescMatrix describes the lab's lookup_part in 3,000 characters; the
// second row turns Claude Code's tool search off, so that its MCP tools
// are sent as definitions instead of names.
const toolDescMatrix = `{"name": "tooldesc", "repeats": 1, "prompt": "Do not call any tools. Reply with one line: OK.",
  "rows": [
    {"name": "tooldesc-3000", "label": "lookup_part described in 3,000 characters", "instr": "none", "tool_description": "ascii:3000"},
    {"name": "tooldesc-3000-notoolsearch", "label": "the same, ENABLE_TOOL_SEARCH=false", "instr": "none", "tool_description": "ascii:3000",
     "env": {"ENABLE_TOOL_SEARCH": "false"}, "clients": ["claude-code"], "no_delta": true}
  ]}`

// TestE2EToolDescription runs a tool_description row through real
// clients: every lab tool's description is located in the first request
// (a definition, a listing, or the name alone); where a client's built-in
// profile measured its tool-description cap, the kept characters of a
// description sent as a definition must equal check's prediction.
func TestE2EToolDescription(t *testing.T) {
	if os.Getenv("INSTRLAB_E2E") != "1" {
		t.Skip("set INSTRLAB_E2E=1 to run real clients")
	}
	dir := t.TempDir()
	mpath := filepath.Join(dir, "m.json")
	if err := os.WriteFile(mpath, []byte(toolDescMatrix), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	var stdout, stderr bytes.Buffer
	args := []string{"run", "-matrix", mpath, "-lab", binary, "-j", "2", "-timeout", "120s", "-out", out,
		"-client", claudecode.Name + "@" + claudecode.DefaultVersion, "-client", codex.Name + "@" + codex.DefaultVersion,
		"-client", qwen.Name + "@" + qwen.DefaultVersion}
	if err := run(context.Background(), args, &stdout, &stderr); err != nil {
		t.Fatalf("run: %v\n%s", err, stderr.String())
	}
	_, results, _, err := report.Load(out)
	if err != nil {
		t.Fatal(err)
	}
	builtin, err := profiles.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	if len(results) != 4 {
		t.Fatalf("%d results, want one per client and the tool-search row on Claude Code", len(results))
	}
	for _, r := range results {
		t.Logf("%s %s: tools sent %s", r.Client, r.Row, report.ToolsCell(&r))
		if r.Status != "ok" {
			t.Errorf("%s %s: %s (%s)", r.Client, r.Row, r.Status, r.Reason)
			continue
		}
		var lookup *matrix.ToolFacts
		for i := range r.Tools {
			if r.Tools[i].Name == "lookup_part" {
				lookup = &r.Tools[i]
			}
		}
		if lookup == nil || lookup.Sent != 3000 {
			t.Fatalf("%s %s: lookup_part's 3,000-character description not read back from the lab's log: %+v", r.Client, r.Row, r.Tools)
		}
		for _, tf := range r.Tools {
			if tf.Via == "" {
				t.Errorf("%s %s: tool %s located nowhere in the first request", r.Client, r.Row, tf.Name)
			}
		}
		if r.Row == "tooldesc-3000-notoolsearch" && lookup.Via != matrix.ViaDefinition {
			t.Errorf("%s: with tool search off, lookup_part arrived as %q, want a definition", r.Client, lookup.Via)
		}
		if lookup.Via != matrix.ViaDefinition {
			continue
		}
		var desc string
		for _, nt := range r.ServerTexts.Tools {
			if nt.Name == "lookup_part" {
				desc = nt.Description
			}
		}
		for _, p := range builtin {
			if p.ID() == r.Client && p.ToolDescriptions.Measured {
				if want := p.ToolDescriptions.Apply(desc, 0).KeptChars; lookup.Kept != want {
					t.Errorf("%s %s: check predicts %d of 3,000 characters of a tool description kept, run measured %d", r.Client, r.Row, want, lookup.Kept)
				}
			}
		}
	}
}
