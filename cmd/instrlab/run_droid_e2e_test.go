package main

import (
	"os"
	"strings"
	"testing"

	"github.com/instrlab/instrlab/internal/client/droid"
	"github.com/instrlab/instrlab/internal/evidence"
	"github.com/instrlab/instrlab/internal/fakeapi"
)

// TestE2EDroid runs Factory's Droid offline on the 1,000-character row in
// its default arm and in arm tools-disabled (two runs, about 4 s of client
// CPU each; the platform package, about 250 MB, is installed from npm on
// first use). Measured on 0.225.2: the server's text is in no request, and
// the lab's tools are not definitions but names in the first request's
// deferred-tools reminder (lab___lookup_part), which the arm's
// disabledTools takes out. The assertions read the recorded requests.
func TestE2EDroid(t *testing.T) {
	if os.Getenv("INSTRLAB_E2E") != "1" {
		t.Skip("set INSTRLAB_E2E=1 to run Droid end to end (npm install on first use)")
	}
	results := runE2E(t, "-client", droid.Name, "-arms", "default,tools-disabled", "-matrix", "cross", "-row", "en-1000",
		"-lab", binary, "-j", "2", "-timeout", "180s")
	if len(results) != 2 {
		t.Fatalf("%d results, want 2", len(results))
	}
	for _, r := range results {
		name := r.Arm.Name + " " + r.Row
		if r.Status != "ok" || r.First == nil {
			t.Errorf("%s: status %q (%s), first request %v", name, r.Status, r.Reason, r.First != nil)
			continue
		}
		if best := bestPlacement(r); best != nil || r.Reader.Begin != "" {
			t.Errorf("%s: the text was found: %+v, reader %q", name, best, r.Reader.Line())
		}
		for _, tool := range r.First.Tools {
			if strings.Contains(tool, "lookup_part") {
				t.Errorf("%s: %s sent as a definition in the first request", name, tool)
			}
		}
		reqs, warnings, err := fakeapi.ReadRequests(evidence.RunDir(r.Dir).Requests())
		if err != nil || len(warnings) > 0 || len(reqs) == 0 {
			t.Fatalf("%s: requests %d, %v, %q", name, len(reqs), err, warnings)
		}
		named := strings.Contains(string(reqs[0].Body), "lab___lookup_part")
		if want := r.Arm.Name != "tools-disabled"; named != want {
			t.Errorf("%s: the first request names lab___lookup_part: %v, want %v", name, named, want)
		}
	}
}
