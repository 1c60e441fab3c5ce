package aisdk

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/instrlab/instrlab/internal/client"
	"github.com/instrlab/instrlab/internal/client/host"
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

// TestEnv: the fake is the OpenAI provider's base URL, under /v1, with
// the run's dummy key; the recipe's model and steps are the host's
// defaults; arm instructions sets the host's switch.
func TestEnv(t *testing.T) {
	f := New("").(*host.Framework)
	env := f.Env(&client.Run{APIURL: "http://127.0.0.1:9/", APIKey: "k"})
	if env["OPENAI_BASE_URL"] != "http://127.0.0.1:9/v1" || env["OPENAI_API_KEY"] != "k" || len(env) != 2 {
		t.Errorf("env %v", env)
	}
	if f.Model != "gpt-4o" || f.Steps != 5 || f.Package() != "ai" || f.Spec().Version != DefaultVersion {
		t.Errorf("model %q steps %d package %q spec %s", f.Model, f.Steps, f.Package(), f.Spec())
	}
	var names []string
	for _, a := range f.Arms() {
		names = append(names, a.Name+" "+a.How())
	}
	if !slices.Equal(names, []string{"default nothing set", "instructions settings instructions=true"}) {
		t.Errorf("arms %q", names)
	}
}
