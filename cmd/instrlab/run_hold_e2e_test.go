package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/instrlab/instrlab/internal/matrix/analyze"
)

// TestE2EHoldSameAsLab: the lab's late-server row (initialize answered
// after 8 s) and the same text from a server behind the recording proxy
// holding its first reply 8 s (run -hold 8s -server) give every client
// the same first request: the text in the same kind of segment with the
// same characters kept, or nowhere in both, and the same tools.
func TestE2EHoldSameAsLab(t *testing.T) {
	if os.Getenv("INSTRLAB_E2E") != "1" {
		t.Skip("set INSTRLAB_E2E=1 to run real clients")
	}
	clients := []string{"-client", "claude-code", "-client", "codex", "-client", "gemini", "-client", "opencode", "-client", "qwen"}
	common := []string{"-lab", binary, "-j", "2", "-timeout", "300s"}
	lab := runE2E(t, slices.Concat(clients, common, []string{"-matrix", "cross", "-row", "en-1000-held8"})...)
	out := t.TempDir() // -out before -server: the rest of the line is the server's command
	var stderr bytes.Buffer
	if err := run(context.Background(), slices.Concat([]string{"run", "-out", out}, clients, common,
		[]string{"-hold", "8s", "-server", "--", binary, "serve", "lab", "-instr", "ascii:1000"}), io.Discard, &stderr); err != nil {
		t.Fatalf("run -hold: %v\n%s", err, stderr.String())
	}
	srv := readResults(t, out)
	type first struct {
		Status, Kind string
		Kept         int
	}
	of := func(r analyze.Result) first {
		f := first{Status: r.Status}
		if r.First != nil {
			if b := r.First.Best(); b != nil {
				f.Kind, f.Kept = string(b.Kind), b.Kept
			}
		}
		return f
	}
	want := map[string]first{}
	for _, r := range lab {
		want[r.Client] = of(r)
	}
	held := 0
	for _, r := range srv {
		if !strings.HasSuffix(r.Row, "-held8s") {
			continue
		}
		held++
		t.Logf("%s: lab %+v, proxy %+v", r.Client, want[r.Client], of(r))
		if diff := cmp.Diff(want[r.Client], of(r)); diff != "" {
			t.Errorf("%s: the lab's late row and the held server differ (-lab +proxy):\n%s", r.Client, diff)
		}
	}
	if held != len(lab) || held != 5 {
		t.Errorf("%d held runs and %d lab runs, want 5 of each", held, len(lab))
	}
}
