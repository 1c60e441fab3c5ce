package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/instrlab/instrlab/internal/client/claudecode"
	"github.com/instrlab/instrlab/internal/client/qwen"
	"github.com/instrlab/instrlab/internal/matrix"
	"github.com/instrlab/instrlab/internal/profiles"
	"github.com/instrlab/instrlab/internal/report"
	"github.com/instrlab/instrlab/lab"
)

// TestE2EUserServer runs a real third-party server from npm that sets
// instructions (@modelcontextprotocol/server-everything, pinned in
// checkNPM) through two real clients with run -server, offline. The
// server's texts come from the proxy's log; where a client's profile is
// built in, check's prediction of what it keeps must equal what the run
// measured (the test fails when they part).
func TestE2EUserServer(t *testing.T) {
	dir := npmDir(t)
	out := t.TempDir()
	var stdout, stderr bytes.Buffer
	args := []string{"run", "-client", claudecode.Name + "@" + claudecode.DefaultVersion, "-client", qwen.Name + "@" + qwen.DefaultVersion,
		"-lab", binary, "-j", "2", "-timeout", "120s", "-out", out, "-server", "--", nodeBin(dir), npmServer(dir, "server-everything"), "stdio"}
	if err := run(context.Background(), args, &stdout, &stderr); err != nil {
		t.Fatalf("run: %v\n%s", err, stderr.String())
	}
	t.Logf("table:\n%s", stdout.String())
	_, results, _, err := report.Load(out)
	if err != nil {
		t.Fatal(err)
	}
	builtin, err := profiles.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	if len(results) != 2 {
		t.Fatalf("%d results, want one per client", len(results))
	}
	for _, r := range results {
		if r.Status != "ok" {
			t.Errorf("%s: %s (%s)", r.Client, r.Status, r.Reason)
			continue
		}
		text := r.ServerTexts.Instructions[lab.EraInitialize]
		if text == "" || len(r.ServerTexts.Tools) == 0 {
			t.Fatalf("%s: the proxy's log holds no instructions or tools of server-everything", r.Client)
		}
		if len(r.Tools) != len(r.ServerTexts.Tools) {
			t.Errorf("%s: %d tools located of %d listed", r.Client, len(r.Tools), len(r.ServerTexts.Tools))
		}
		// Both clients defer MCP tools behind a search tool: Claude Code
		// names them, Qwen Code lists them with their descriptions. Every
		// tool must be found in one form or the other.
		for _, tf := range r.Tools {
			if tf.Via == "" {
				t.Errorf("%s: tool %s located nowhere in the first request", r.Client, tf.Name)
			}
		}
		best := r.First.Best()
		for _, p := range builtin {
			if p.ID() != r.Client || !p.Instructions.Measured {
				continue
			}
			want := p.Instructions.Apply(text, 0).KeptChars
			got := 0
			if best != nil {
				got = best.Kept
			}
			if got != want {
				t.Errorf("%s: check predicts %d of %d characters kept, run measured %d", r.Client, want, r.Sent, got)
			}
		}
		if best != nil && !best.Full && !strings.HasPrefix(matrix.LostTail(text, best.Kept), "cut in") {
			t.Errorf("%s: a cut text without its lost tail named", r.Client)
		}
	}
}
