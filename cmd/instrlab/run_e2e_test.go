package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/instrlab/instrlab/internal/client/clients"
	"github.com/instrlab/instrlab/internal/matrix/analyze"
	"github.com/instrlab/instrlab/internal/report"
	"github.com/instrlab/instrlab/lab"
)

// e2eClient is the Claude Code the end-to-end tests run: INSTRLAB_E2E_CLIENT,
// else the pinned version.
func e2eClient() string {
	if spec := os.Getenv("INSTRLAB_E2E_CLIENT"); spec != "" {
		return spec
	}
	return "claude-code"
}

// runE2E runs "instrlab run" with args and a fresh -out dir, logs the
// table, and returns the results report.Load reads back from the dir. A
// failed run or an unreadable dir fails the test; a report warning is an
// error.
func runE2E(t *testing.T, args ...string) []analyze.Result {
	t.Helper()
	return runE2EFailing(t, false, args...)
}

// runE2EFailing is runE2E, but when failing is set a run that fails (run
// exits with the failure code) does not fail the test: the caller
// asserts which runs failed.
func runE2EFailing(t *testing.T, failing bool, args ...string) []analyze.Result {
	t.Helper()
	out := t.TempDir()
	var stdout, stderr bytes.Buffer
	args = append(append([]string{"run"}, args...), "-out", out)
	var ee exitError
	if err := run(context.Background(), args, &stdout, &stderr); err != nil && !(failing && errors.As(err, &ee) && ee.Code == exitFailure) {
		t.Fatalf("run: %v\n%s", err, stderr.String())
	}
	t.Logf("table:\n%s", stdout.String())
	_, results, warnings, err := report.Load(t.Context(), clients.New, out)
	if err != nil {
		t.Fatal(err)
	}
	if len(warnings) > 0 {
		t.Errorf("report warnings: %q", warnings)
	}
	return results
}

// TestE2EClaudeCode runs the reduced matrix against the real Claude Code,
// offline, installing the pinned version with npm if it is not cached.
// It only runs with INSTRLAB_E2E=1 (.ci/run sets it); INSTRLAB_E2E_CLIENT
// picks another version. Every assertion is on the evidence, and none
// assumes a cap, a placement or a probe order: those are compared with what
// the same run's own logs say.
func TestE2EClaudeCode(t *testing.T) {
	if os.Getenv("INSTRLAB_E2E") != "1" {
		t.Skip("set INSTRLAB_E2E=1 to run Claude Code end to end (npm install on first use)")
	}
	results := runE2E(t, "-client", e2eClient(), "-matrix", "testdata/e2e-matrix.json", "-lab", binary, "-j", "2", "-timeout", "90s")
	if len(results) != 8 {
		t.Fatalf("%d results, want 8", len(results))
	}
	by := map[string][]analyze.Result{}
	for _, r := range results {
		by[r.Row] = append(by[r.Row], r)
		if r.Status != "ok" || r.Observation.ServerStatus != "connected" {
			t.Errorf("%s #%d: status %q (%s), server %q", r.Row, r.Repeat, r.Status, r.Reason, r.Observation.ServerStatus)
		}
		if len(r.Warnings) > 0 {
			t.Errorf("%s #%d: warnings %q", r.Row, r.Repeat, r.Warnings)
		}
		if r.ModelAnswer != r.Reader.Line() {
			t.Errorf("%s #%d: the client printed %q, the reader says %q", r.Row, r.Repeat, r.ModelAnswer, r.Reader.Line())
		}
		// The server's log and the client's debug log agree on the era.
		era := r.Observation.Era
		if r.Handshake.InitializeSent != (era == "legacy") {
			t.Errorf("%s #%d: initialize sent %v but the debug log says era %q", r.Row, r.Repeat, r.Handshake.InitializeSent, era)
		}
	}
	for row, rs := range by {
		if rs[0].RequestKey != rs[1].RequestKey {
			t.Errorf("%s: the two repeats sent different first requests after normalising", row)
		}
	}
	none, en1000, cut, dual := by["none"][0], by["en-1000"][0], by["en-5000-cap2048"][0], by["en-1000-dual"][0]
	if none.First.Best() != nil || none.Reader.Line() != "BEGIN=NONE END=NONE LAST=NONE" {
		t.Errorf("no instructions: placement %+v, reader %s", none.First.Best(), none.Reader.Line())
	}
	if b := en1000.First.Best(); b == nil || !b.Full || b.Kept != 1000 || b.Reply != "initialize" || en1000.Reader.End == "" {
		t.Errorf("1,000: placement %+v, reader %s", b, en1000.Reader.Line())
	}
	if en1000.First.Tokens <= none.First.Tokens {
		t.Errorf("1,000 characters did not grow the first request: %d vs %d tokens", en1000.First.Tokens, none.First.Tokens)
	}
	b := cut.First.Best()
	if b == nil || b.Full || b.Kept != 2048 || !strings.HasPrefix(b.Suffix, analyze.TruncationSuffix) || cut.Reader.End != "" {
		t.Errorf("5,000 with the cap at 2048: placement %+v, reader %s", b, cut.Reader.Line())
	}
	if tr := cut.Observation.Truncations; len(tr) != 1 || tr[0].From != 5000 || tr[0].To != 2048 {
		t.Errorf("5,000 with the cap at 2048: debug log truncations %+v", tr)
	}
	d := dual.First.Best()
	if d == nil {
		t.Fatalf("dual era: instructions nowhere")
	}
	wantEra := "initialize"
	if !dual.Handshake.InitializeSent {
		wantEra = "discover"
	}
	if d.Reply != lab.Reply(wantEra) {
		t.Errorf("dual era: codewords from %s, but the server's log says initialize sent = %v", d.Reply, dual.Handshake.InitializeSent)
	}
}

// TestE2EClaudeCodeWithoutNetwork runs one row inside a network namespace
// that has nothing but loopback (unshare -n, root only): the run must
// succeed exactly as with a network, so it needs nothing from outside.
func TestE2EClaudeCodeWithoutNetwork(t *testing.T) {
	if os.Getenv("INSTRLAB_E2E") != "1" {
		t.Skip("set INSTRLAB_E2E=1 to run Claude Code end to end")
	}
	if os.Geteuid() != 0 {
		t.Skip("unshare -n needs root")
	}
	for _, tool := range []string{"unshare", "ip"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s not found", tool)
		}
	}
	spec := e2eClient()
	// Provision outside the namespace (npm needs the registry).
	var stdout, stderr bytes.Buffer
	warm := t.TempDir()
	if err := run(context.Background(), []string{"run", "-client", spec, "-row", "en-1000", "-repeats", "1", "-lab", binary, "-out", warm}, &stdout, &stderr); err != nil {
		t.Fatalf("provisioning run: %v\n%s", err, stderr.String())
	}
	out := t.TempDir()
	cmd := exec.Command("unshare", "-n", "sh", "-c", `ip link set lo up && exec "$0" "$@"`,
		binary, "run", "-client", spec, "-row", "en-1000", "-repeats", "1", "-out", out)
	b, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("run without network: %v\n%s", err, b)
	}
	_, results, _, err := report.Load(t.Context(), clients.New, out)
	if err != nil || len(results) != 1 {
		t.Fatalf("results %v, %v", results, err)
	}
	r := results[0]
	if p := r.First.Best(); r.Status != "ok" || p == nil || !p.Full || r.Observation.ServerStatus != "connected" {
		t.Errorf("without network: status %q, server %q, placement %+v", r.Status, r.Observation.ServerStatus, p)
	}
}
