package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/instrlab/instrlab/internal/evidence"
	"github.com/instrlab/instrlab/internal/fakeapi"
	"github.com/instrlab/instrlab/internal/matrix/analyze"
	"github.com/instrlab/instrlab/internal/netjail"
)

// TestE2EClaudeCodeDirect runs the pinned Claude Code once in the direct
// arm: no ANTHROPIC_BASE_URL in its environment, api.anthropic.com
// resolved to the fake inside the jail, the run's CA trusted through
// NODE_EXTRA_CA_CERTS. Every request the fake recorded came over TLS
// addressed to api.anthropic.com (SNI and Host), the model request among
// them. INSTRLAB_E2E=1, Linux as root; one short row, about 10 s with the
// client installed.
func TestE2EClaudeCodeDirect(t *testing.T) {
	if os.Getenv("INSTRLAB_E2E") != "1" {
		t.Skip("set INSTRLAB_E2E=1 to run Claude Code end to end (npm install on first use)")
	}
	if err := netjail.Supported(); err != nil {
		t.Skip(err)
	}
	m := filepath.Join(t.TempDir(), "m.json")
	os.WriteFile(m, []byte(`{"name":"direct","repeats":1,"prompt":"Reply with one word.","rows":[
		{"name":"en-1000","label":"1,000","instr":"ascii:1000"}]}`), 0o644)
	rs := runE2E(t, "-client", "claude-code", "-matrix", m, "-arms", "direct", "-netns", "on", "-lab", binary, "-timeout", "180s")
	if len(rs) != 1 || rs[0].Status != "ok" || rs[0].Arm.Name != "direct" {
		t.Fatalf("results: %+v", rs)
	}
	dir := evidence.RunDir(rs[0].Dir)
	rec, err := analyze.ReadRecord(rs[0].Dir)
	if err != nil {
		t.Fatal(err)
	}
	if slices.Contains(rec.EnvKeys, "ANTHROPIC_BASE_URL") || !slices.Contains(rec.EnvKeys, "NODE_EXTRA_CA_CERTS") {
		t.Errorf("the client's environment has %v; want NODE_EXTRA_CA_CERTS and no ANTHROPIC_BASE_URL", rec.EnvKeys)
	}
	reqs, warns, err := fakeapi.ReadRequests(dir.Requests())
	if err != nil || len(warns) > 0 {
		t.Fatal(err, warns)
	}
	model := 0
	for _, q := range reqs {
		if q.Host != "api.anthropic.com" {
			t.Errorf("request %d %s came to %q, want over TLS to api.anthropic.com", q.Seq, q.Path, q.Host)
		}
		if q.Path == "/v1/messages" {
			model++
		}
	}
	if model == 0 {
		t.Errorf("no /v1/messages among %d requests", len(reqs))
	}
	hs, warns, err := fakeapi.ReadHandshakes(dir.TLSLog())
	if err != nil || len(warns) > 0 || len(hs) == 0 {
		t.Fatalf("handshakes %+v: %v %v", hs, err, warns)
	}
	for _, h := range hs {
		if h.SNI != "api.anthropic.com" || h.Error != "" {
			t.Errorf("handshake %+v, want one to api.anthropic.com that succeeded", h)
		}
	}
	lookups, _, err := netjail.ReadLookups(dir.DNSLog())
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"api.anthropic.com"}, netjail.Resolved(lookups)); diff != "" {
		t.Errorf("names resolved to the fake mismatch (-want +got):\n%s", diff)
	}
	// What the client says of its provider, logged, not asserted: the
	// wording is the client's and moves with its version.
	if b, err := os.ReadFile(dir.Client("debug.log")); err == nil {
		for _, l := range regexp.MustCompile(`(?m)^.*dispatching to \w+.*$`).FindAll(b, -1) {
			t.Logf("debug log: %s", bytes.TrimSpace(l))
		}
	}
	t.Logf("%d requests over %d TLS handshakes, paths %v", len(reqs), len(hs), paths(reqs))
}

func paths(reqs []fakeapi.Request) []string {
	var out []string
	for _, q := range reqs {
		out = append(out, q.Path)
	}
	return out
}
