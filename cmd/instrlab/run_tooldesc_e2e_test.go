package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/instrlab/instrlab/internal/client/clients"
	"github.com/instrlab/instrlab/internal/matrix/analyze"
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

// TestE2EToolDescription runs a tool_description row through every
// pinned client (a Kilo Code CLI run took 5 minutes at load 31): every lab tool's description is located in the first request
// (a definition, a listing, or the name alone); where a client's built-in
// profile measured what becomes of tool descriptions, the run must agree
// with check's prediction: the kept characters under its cap, or none
// sent where it measured that none is.
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
	args := []string{"run", "-matrix", mpath, "-lab", binary, "-j", "2", "-timeout", "360s", "-out", out, "-client", "all"}
	if err := run(context.Background(), args, &stdout, &stderr); err != nil {
		t.Fatalf("run: %v\n%s", err, stderr.String())
	}
	_, results, _, err := report.Load(t.Context(), clients.New, out)
	if err != nil {
		t.Fatal(err)
	}
	builtin, err := profiles.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	pinned, err := clients.NewList(context.Background(), []string{clients.All}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if len(results) != len(pinned)+1 {
		t.Fatalf("%d results, want one per pinned client (%d) and the tool-search row on Claude Code", len(results), len(pinned))
	}
	checkToolDescriptions(t, results, builtin)
}

// checkToolDescriptions checks the tools of each result of a
// tool_description row (see TestE2EToolDescription), and each description
// the analysis found against the first request itself: the characters it
// says were kept are there, and not one more.
func checkToolDescriptions(t *testing.T, results []analyze.Result, builtin []profiles.Profile) {
	t.Helper()
	for _, r := range results {
		t.Logf("%s %s: tools sent %s", r.Client, r.Row, report.ToolsCell(&r))
		if r.Status != "ok" {
			t.Errorf("%s %s: %s (%s)", r.Client, r.Row, r.Status, r.Reason)
			continue
		}
		var lookup *analyze.ToolFacts
		for i := range r.Tools {
			if r.Tools[i].Name == "lookup_part" {
				lookup = &r.Tools[i]
			}
		}
		if lookup == nil || lookup.Sent != 3000 {
			t.Fatalf("%s %s: lookup_part's 3,000-character description not read back from the lab's log: %+v", r.Client, r.Row, r.Tools)
		}
		// A client whose profile measured that no first request defines
		// or names a server's tool (Grok CLI 0.0.34, check's
		// tools-unoffered) has each located nowhere; any other, none.
		unoffered := slices.ContainsFunc(builtin, func(p profiles.Profile) bool {
			return p.ID() == r.Client && p.ToolDescriptions.Unsent && p.ToolDescriptions.Via == ""
		})
		text := firstRequestText(t, r)
		for _, tf := range r.Tools {
			if (tf.Via == "") != unoffered {
				t.Errorf("%s %s: tool %s located %q in the first request; its profile offers none: %v", r.Client, r.Row, tf.Name, tf.Via, unoffered)
			}
			if tf.Kept == 0 {
				continue
			}
			desc := toolDescription(r, tf.Name)
			if !strings.Contains(text, firstRunes(desc, tf.Kept)) || !tf.Full && strings.Contains(text, firstRunes(desc, tf.Kept+1)) {
				t.Errorf("%s %s: tool %s: the first request does not hold exactly the %d characters of its description said kept", r.Client, r.Row, tf.Name, tf.Kept)
			}
		}
		if r.Row == "tooldesc-3000-notoolsearch" && lookup.Via != analyze.ViaDefinition {
			t.Errorf("%s: with tool search off, lookup_part arrived as %q, want a definition", r.Client, lookup.Via)
		}
		desc := toolDescription(r, "lookup_part")
		for _, p := range builtin {
			if p.ID() != r.Client {
				continue
			}
			l := p.ToolDescriptions
			switch {
			case l.Unsent && r.Row != "tooldesc-3000-notoolsearch":
				if lookup.Found {
					t.Errorf("%s %s: check predicts no tool description sent (%s), run found %d characters (%s)", r.Client, r.Row, l.Via, lookup.Kept, lookup.Via)
				}
			case l.Measured || l.AtLeast >= lookup.Sent:
				// A cap measured (also where Claude Code sends them
				// with its tool search off), or none reached at 3,000.
				if want := l.Apply(desc, 0).KeptChars; !lookup.Found || lookup.Kept != want {
					t.Errorf("%s %s: check predicts %d of 3,000 characters of a tool description kept, run measured %d (%s)", r.Client, r.Row, want, lookup.Kept, lookup.Via)
				}
			}
		}
	}
}

// toolDescription is the description of tool name that the lab's log
// shows the server sent.
func toolDescription(r analyze.Result, name string) string {
	for _, nt := range r.ServerTexts.Tools {
		if nt.Name == name {
			return nt.Description
		}
	}
	return ""
}
