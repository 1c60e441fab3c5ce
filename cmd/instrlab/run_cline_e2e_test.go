package main

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"

	"github.com/instrlab/instrlab/internal/client/clients"
	"github.com/instrlab/instrlab/internal/client/cline"
	"github.com/instrlab/instrlab/internal/evidence"
	"github.com/instrlab/instrlab/internal/fakeapi"
	"github.com/instrlab/instrlab/internal/matrix/analyze"
	"github.com/instrlab/instrlab/internal/report"
)

// TestE2EClineNodeLineNeedsATool reproduces why the sweep refuses Cline
// 2.x (cline.Supports, docs/clients.md "Cline CLI before 3.0"): 2.18.0
// runs offline, connects to the lab and sends its requests to the fake,
// with the lab's tools in its system prompt (XML tool use, no tool
// definitions), but its core ends a task only through a tool call
// (attempt_completion), so the fake's plain-text answer counts as a
// mistake and the run fails after 3 of them. It fails the day a run of
// 2.x ends well: then the sweep can probe the line (drop it from
// Supports) and the docs must say what it does.
func TestE2EClineNodeLineNeedsATool(t *testing.T) {
	r := runClineFails(t, "2.18.0")
	if !strings.Contains(r.Observation.ResultError, "Too many consecutive mistakes (3)") {
		t.Errorf("failed, but not for want of a tool call: status %q (%s), client error %q", r.Status, r.Reason, r.Observation.ResultError)
	}
	reqs, warnings, rerr := fakeapi.ReadRequests(evidence.RunDir(r.Dir).Requests())
	if rerr != nil || len(warnings) > 0 || len(reqs) != 3 {
		t.Fatalf("requests: %d (want 3: one a mistake), %v, %q", len(reqs), rerr, warnings)
	}
	for i, q := range reqs {
		if q.Reply != r.Reader.Line() {
			t.Errorf("request %d was answered %q, not the reader's line %q", i+1, q.Reply, r.Reader.Line())
		}
	}
	body := string(reqs[1].Body)
	if !strings.Contains(body, "You did not use a tool in your previous response") {
		t.Errorf("the second request does not say the first reply used no tool")
	}
	if r.First == nil || len(r.First.Tools) != 0 || !strings.Contains(string(reqs[0].Body), "lookup_part") {
		t.Errorf("first request: want no tool definitions and the lab's tools named in its text; got %+v", r.First)
	}
	if r.Observation.Model != cline.DefaultModel || r.ModelAnswer != r.Reader.Line() {
		t.Errorf("observation: model %q, answer %q, want %q and %q", r.Observation.Model, r.ModelAnswer, cline.DefaultModel, r.Reader.Line())
	}
	if !r.Handshake.InitializeSent {
		t.Errorf("the lab saw no initialize: %v", r.Handshake.Methods)
	}
}

// runClineFails runs cline@version on the 1,000-character row and returns
// its one result, failing the test if the run ended well: then the sweep
// can probe the version's line (drop it from cline.Supports) and
// docs/clients.md must say what it does. It installs a release other than
// the pin, so, as Copilot's release tests, it runs only with
// INSTRLAB_E2E=1 INSTRLAB_E2E_RELEASES=1, not in CI's cold run.
func runClineFails(t *testing.T, version string) analyze.Result {
	t.Helper()
	if os.Getenv("INSTRLAB_E2E") != "1" || os.Getenv("INSTRLAB_E2E_RELEASES") != "1" {
		t.Skip("set INSTRLAB_E2E=1 INSTRLAB_E2E_RELEASES=1 to run Cline " + version + " end to end (npm install on first use)")
	}
	out := t.TempDir()
	var stdout, stderr bytes.Buffer
	err := run(context.Background(), []string{"run", "-client", "cline@" + version, "-row", "en-1000", "-lab", binary,
		"-timeout", "240s", "-out", out}, &stdout, &stderr)
	t.Logf("table:\n%s\nstderr:\n%s", stdout.String(), stderr.String())
	_, results, _, lerr := report.Load(t.Context(), clients.New, out)
	if lerr != nil || len(results) != 1 {
		t.Fatalf("%d results, %v (run: %v)", len(results), lerr, err)
	}
	r := results[0]
	if r.Status == "ok" || err == nil {
		t.Fatalf("cline@%s finished a run against the fake (status %q): drop its line from cline.Supports and update docs/clients.md", version, r.Status)
	}
	return r
}
