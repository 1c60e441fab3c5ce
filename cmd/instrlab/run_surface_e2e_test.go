package main

import (
	"os"
	"testing"

	"github.com/instrlab/instrlab/internal/surface"
)

// TestE2ESurface runs the surface matrix's results row on the real Claude
// Code (about 30 s): every scripted call reaches the lab under the name the
// client offered, a request follows with its result, and each part of each
// result is located or reported missing, never both or neither; the plain
// text result arrives whole in the tool result of its call.
func TestE2ESurface(t *testing.T) {
	if os.Getenv("INSTRLAB_E2E") != "1" {
		t.Skip("set INSTRLAB_E2E=1 to run Claude Code end to end (npm install on first use)")
	}
	results := runE2E(t, "-client", e2eClient(), "-matrix", "surface", "-row", "surface-results", "-lab", binary, "-timeout", "120s")
	if len(results) != 1 || results[0].Status != "ok" || results[0].Surface == nil {
		t.Fatalf("results %+v", results)
	}
	calls := results[0].Surface.Calls
	if len(calls) != 10 {
		t.Fatalf("%d calls, want the 10 result tools", len(calls))
	}
	for _, c := range calls {
		if !c.Reached || c.Following == 0 || len(c.Parts) == 0 {
			t.Errorf("%s (as %s): reached %v, following %d, %d parts", c.Tool, c.Name, c.Reached, c.Following, len(c.Parts))
		}
		for _, p := range c.Parts {
			if p.Reached == (p.Form == "") || p.Sent == 0 {
				t.Errorf("%s %s: reached %v in form %q, sent %d", c.Tool, p.Part, p.Reached, p.Form, p.Sent)
			}
			if c.Tool == "result_text" && (!p.Full || !p.InResult || p.Form != surface.FormText) {
				t.Errorf("result_text's text: %+v, want whole text in its tool result", p)
			}
		}
	}
}
