package main

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/instrlab/instrlab/internal/matrix/analyze"
	"github.com/instrlab/instrlab/internal/netjail"
)

// TestE2EClaudeCodeDirectDefers: gateway documentation says Claude Code
// turns tool search off whenever its base URL is not a first-party
// Anthropic host (since 2.1.70), which would make every gateway-arm table
// say another thing of a deferred server than its users see. Measured,
// Claude Code 2.1.332 defers a server's 40 tools behind ToolSearch in both
// arms alike (names only; 2026-12-03 09:37 UTC, two runs an arm), at the
// loopback base URL of the gateway arm as at api.anthropic.com: this holds
// it, one run an arm (about 5 s).
func TestE2EClaudeCodeDirectDefers(t *testing.T) {
	if os.Getenv("INSTRLAB_E2E") != "1" {
		t.Skip("set INSTRLAB_E2E=1 to run real clients")
	}
	if err := netjail.Supported(); err != nil {
		t.Skip(err)
	}
	m := filepath.Join(t.TempDir(), "m.json")
	os.WriteFile(m, []byte(`{"name":"direct-defer","repeats":1,"prompt":"Reply with one word.","rows":[
		{"name":"en-1000-tools40","label":"1,000 characters, 40 tools","instr":"ascii:1000","tools":40}]}`), 0o644)
	rs := runE2E(t, "-client", "claude-code", "-matrix", m, "-arms", "default,direct", "-netns", "on", "-lab", binary, "-timeout", "360s")
	arms := map[string]bool{}
	for _, r := range rs {
		arms[r.Arm.Name] = true
		if r.Status != "ok" || r.First == nil {
			t.Fatalf("%s: status %s (%s)", r.Arm.Name, r.Status, r.Reason)
		}
		nameOnly := 0
		for _, tf := range r.Tools {
			if tf.Via == analyze.ViaNameOnly {
				nameOnly++
			}
		}
		if nameOnly != 40 || !slices.Contains(r.First.Tools, "ToolSearch") {
			t.Errorf("arm %q: %d of the lab's %d tools named only, ToolSearch offered %v; want all 40 deferred behind it",
				r.Arm.Name, nameOnly, len(r.Tools), slices.Contains(r.First.Tools, "ToolSearch"))
		}
	}
	if len(rs) != 2 || !arms["direct"] {
		t.Fatalf("%d results, arms %v: want the gateway and the direct arm", len(rs), arms)
	}
}
