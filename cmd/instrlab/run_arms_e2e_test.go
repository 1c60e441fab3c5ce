package main

import (
	"os"
	"slices"
	"testing"

	"github.com/instrlab/instrlab/internal/fakeapi"
	"github.com/instrlab/instrlab/lab"
)

// TestE2EClaudeCodeSeedArm runs the dual-era row on Claude Code 2.1.285 in
// its default arm and in arm seed, offline: the seed arm must reproduce
// what seed 000 saw online (the debug log's "v2 (source: growthbook)", a
// server/discover probe of the stdio server, the DiscoverResult's text
// kept with initialize never sent, the text in the first user turn), and
// the default arm none of it. INSTRLAB_E2E=1 only.
func TestE2EClaudeCodeSeedArm(t *testing.T) {
	if os.Getenv("INSTRLAB_E2E") != "1" {
		t.Skip("set INSTRLAB_E2E=1 to run Claude Code end to end (npm install on first use)")
	}
	results := runE2E(t, "-client", "claude-code@2.1.285", "-matrix", "seed", "-row", "en-1000-dual", "-repeats", "1",
		"-arms", "default,seed", "-lab", binary, "-j", "2", "-timeout", "3m")
	if len(results) != 2 {
		t.Fatalf("%d results, want 2", len(results))
	}
	for _, r := range results {
		if r.Status != "ok" {
			t.Fatalf("%s: %s", r.Who(), r.Reason)
		}
		seed := r.Arm.Name == "seed"
		probed := len(r.Handshake.Methods) > 0 && r.Handshake.Methods[0] == "server/discover"
		best := r.First.Best()
		if best == nil {
			t.Fatalf("%s: no text in the first request", r.Who())
		}
		userTurn := best.Kind == fakeapi.KindUserTurn
		said := r.Observation.ArmSaid()
		wantSaid := map[bool]string{true: "v2 (source: growthbook)", false: "v2 (source: default)"}[seed]
		if probed != seed || (best.Reply == lab.ReplyDiscover) != seed || userTurn != seed || said != wantSaid ||
			seed && slices.Contains(r.Handshake.Methods, "initialize") {
			t.Errorf("%s: methods %v, text from %s at %s, client says %q; want the seed's observations only in arm seed",
				r.Who(), r.Handshake.Methods, best.Reply, best.Path, said)
		}
	}
}
