package main

import (
	"os"
	"testing"

	"github.com/instrlab/instrlab/internal/client/copilot"
	"github.com/instrlab/instrlab/internal/fakeapi"
)

// TestE2ECopilotInstructions settles whether Copilot CLI uses a server's
// instructions, from the captured requests: in its default arm the lab's
// text reaches the client (its events list it) but no model request holds
// it; with --allow-all-mcp-server-instructions the whole text is in the
// first request's system message, and the client waits for a server that
// answers initialize 8 s late.
func TestE2ECopilotInstructions(t *testing.T) {
	if os.Getenv("INSTRLAB_E2E") != "1" {
		t.Skip("set INSTRLAB_E2E=1 to run Copilot CLI end to end (npm install on first use)")
	}
	results := runE2E(t, "-client", copilot.Name, "-matrix", "cross", "-row", "en-1000",
		"-row", "en-20000-all-instructions", "-row", "en-1000-held8-all-instructions",
		"-lab", binary, "-j", "2", "-timeout", "120s")
	seen := map[string]bool{}
	for _, r := range results {
		seen[r.Row] = true
		if r.Status != "ok" || r.First == nil {
			t.Errorf("%s: status %q (%s), first request %v", r.Row, r.Status, r.Reason, r.First != nil)
			continue
		}
		best := bestPlacement(r)
		switch r.Row {
		case "en-1000":
			if best != nil || r.Reader.Begin != "" {
				t.Errorf("%s: default arm, yet the text was found: %+v, reader %q", r.Row, best, r.Reader.Line())
			}
		default:
			if best == nil || !best.Full || best.Kind != fakeapi.KindSystem {
				t.Errorf("%s: with the flag, want the whole text in a system message, got %+v", r.Row, best)
			}
			if r.First.Best() == nil {
				t.Errorf("%s: the first request lacks the text", r.Row)
			}
		}
	}
	if len(seen) != 3 {
		t.Errorf("rows run: %v, want 3", seen)
	}
}

// TestE2ECopilotReleaseLines runs row en-1000 on one version of each line
// of releases whose package differs from the pin's (internal/client/copilot,
// layout.go): 1.0.11, unpacked under the home's .cache/copilot/pkg;
// 1.0.87, under COPILOT_PKG_CACHE_HOME and started from app.js; 1.0.92,
// without --disable-client-telemetry. Each must connect to the lab and
// send the fake a request.
func TestE2ECopilotReleaseLines(t *testing.T) {
	if os.Getenv("INSTRLAB_E2E") != "1" || os.Getenv("INSTRLAB_E2E_RELEASES") != "1" {
		t.Skip("set INSTRLAB_E2E=1 INSTRLAB_E2E_RELEASES=1 to run three Copilot CLI releases end to end (npm install on first use)")
	}
	versions := []string{"1.0.11", "1.0.87", "1.0.92"}
	args := []string{"-row", "en-1000", "-lab", binary, "-j", "2", "-timeout", "180s"}
	for _, v := range versions {
		args = append(args, "-client", copilot.Name+"@"+v)
	}
	results := runE2E(t, args...)
	seen := map[string]bool{}
	for _, r := range results {
		seen[r.Client] = true
		if r.Status != "ok" || r.First == nil || r.Observation.ServerStatus != "connected" || len(r.Warnings) > 0 {
			t.Errorf("%s %s: status %q (%s), first request %v, server %q, warnings %q",
				r.Client, r.Row, r.Status, r.Reason, r.First != nil, r.Observation.ServerStatus, r.Warnings)
		}
	}
	for _, v := range versions {
		if !seen[copilot.Name+"@"+v] {
			t.Errorf("no result for %s@%s (results: %v)", copilot.Name, v, seen)
		}
	}
}
