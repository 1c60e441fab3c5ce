package aisdk

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/instrlab/instrlab/internal/client"
	"github.com/instrlab/instrlab/internal/evidence"
	"github.com/instrlab/instrlab/internal/testutil"
)

// TestObserveRealRun reads the host's output of a real run in arm
// instructions (instrlab run -client ai-sdk -arms all -matrix seed,
// 2026-12-06): the server connected, the answer the fake gave, the model
// the SDK reports.
func TestObserveRealRun(t *testing.T) {
	dir := testutil.RunDir(t, filepath.Join("testdata", "en-1000-instructions"), map[string]string{"stdout.txt": "client/stdout.txt"})
	o := New("").Observe(client.Evidence{Dir: dir, Servers: []string{"lab"}})
	got := []string{o.ServerStatus, o.Answer, o.Model, o.ResultError}
	if diff := cmp.Diff([]string{"connected", "BEGIN=PINTAIL-8601 END=PINTAIL-3421 LAST=798", "opus", ""}, got); diff != "" {
		t.Errorf("Observe mismatch (-want +got):\n%s", diff)
	}
	if len(o.Warnings) > 0 || !slices.Equal(o.Files, []string{evidence.StdoutFile}) {
		t.Errorf("warnings %v files %v", o.Warnings, o.Files)
	}
}

// TestCommand: the host runs on the run's config, in the arm's setting,
// with the fake as the OpenAI provider's base URL; an unprovisioned
// client says so.
func TestCommand(t *testing.T) {
	a := New("").(*AISDK)
	dir := t.TempDir()
	r := &client.Run{Dir: dir, Work: dir, APIURL: "http://127.0.0.1:9/", APIKey: "k", Prompt: "p",
		Servers: []client.Server{{Name: "lab", Command: "/bin/instrlab", Args: []string{"serve", "lab"}}}}
	if _, err := a.Command(context.Background(), r); err == nil || !strings.Contains(err.Error(), "not provisioned") {
		t.Fatalf("unprovisioned: %v", err)
	}
	a.node, a.script = "/usr/bin/node", "/cache/ai-sdk@7.0.185/host-abc.mjs"
	r.Work = r.ClientDir() // where testutil.Command reads the config
	for _, arm := range a.Arms() {
		r.Arm = arm
		cmd, cb := testutil.Command(t, a, r, "host.json")
		cfg := filepath.Join(r.ClientDir(), "host.json")
		if !slices.Equal(cmd.Args, []string{"/usr/bin/node", a.script, cfg}) {
			t.Errorf("args %q", cmd.Args)
		}
		if !slices.Contains(cmd.Env, "OPENAI_BASE_URL=http://127.0.0.1:9/v1") || !slices.Contains(cmd.Env, "OPENAI_API_KEY=k") {
			t.Errorf("env %q", cmd.Env)
		}
		b := string(cb)
		if got := strings.Contains(b, `"instructions": true`); got != (arm.Name == "instructions") {
			t.Errorf("arm %s: config %s", arm.Name, b)
		}
		if !strings.Contains(b, `"model": "gpt-4o"`) || !strings.Contains(b, `"maxSteps": 5`) {
			t.Errorf("the recipe's model and steps: %s", b)
		}
	}
}

// TestHost: the host's files check (npm.Host.Check) and its package.json
// names the pinned version of ai.
func TestHost(t *testing.T) {
	if err := Host.Check(); err != nil {
		t.Fatal(err)
	}
	if pin, _ := Host.Pin(); pin != DefaultVersion {
		t.Errorf("host/package.json names ai %s, the pin is %s", pin, DefaultVersion)
	}
}
