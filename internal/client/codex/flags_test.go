package codex

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/instrlab/instrlab/internal/client"
	"github.com/instrlab/instrlab/internal/testutil"
)

// fakeCodex writes an executable that prints help and counts its calls
// in dir/calls.
func fakeCodex(t *testing.T, help string) (bin, dir string) {
	return testutil.FakeHelp(t, "codex", help)
}

// TestOlderVersionsGetTheFlagsTheyHave: a version whose exec --help has no
// --disable runs without it; its help is asked once per install; one
// without --json is refused, naming the flag.
func TestOlderVersionsGetTheFlagsTheyHave(t *testing.T) {
	bin, dir := fakeCodex(t, "Usage: codex exec [OPTIONS] [PROMPT]\n  --json  --skip-git-repo-check  -c, --config")
	prefix := t.TempDir()
	for range 2 {
		flags, err := execFlags(context.Background(), bin, prefix)
		if err != nil {
			t.Fatal(err)
		}
		if flags["--disable"] || !flags["--json"] {
			t.Errorf("flags %v", flags)
		}
	}
	if calls, _ := os.ReadFile(filepath.Join(dir, "calls")); string(calls) != "exec --help\n" {
		t.Errorf("exec --help ran %q, want once per install", calls)
	}

	c := &Codex{Base: Info.At("0.20.0"), bin: bin, noDisable: true}
	r := &client.Run{Dir: t.TempDir(), Home: t.TempDir(), Work: t.TempDir(), Prompt: "hi"}
	if err := os.MkdirAll(r.ClientDir(), 0o755); err != nil {
		t.Fatal(err)
	}
	cmd, err := c.Command(context.Background(), r)
	if err != nil {
		t.Fatal(err)
	}
	if args := strings.Join(cmd.Args, " "); strings.Contains(args, "--disable") || !strings.Contains(args, "exec --skip-git-repo-check --json -c analytics.enabled=false hi") {
		t.Errorf("command without --disable: %s", args)
	}
	c.noDisable = false
	if cmd, _ = c.Command(context.Background(), r); !strings.Contains(strings.Join(cmd.Args, " "), "--json --disable plugins -c") {
		t.Errorf("command with --disable: %s", cmd.Args)
	}

	old, _ := fakeCodex(t, "Usage: codex exec [OPTIONS] [PROMPT]\n  --skip-git-repo-check")
	if _, err := execFlags(context.Background(), old, ""); err == nil || err.Error() != "cannot be driven: its exec --help lists no --json" {
		t.Errorf("execFlags = %v, want a refusal naming --json", err)
	}
}

// TestDisableOnlyAFeatureTheVersionKnows: 0.73.0's exec --help lists
// --disable but its features list has no plugins (given --disable plugins it
// exits 1, "Unknown feature flag: plugins"), so it runs without --disable;
// a version listing plugins gets it; features list is asked once per
// install.
func TestDisableOnlyAFeatureTheVersionKnows(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("a shell script stands in for codex")
	}
	for _, tc := range []struct {
		features string
		want     bool // noDisable
	}{
		{"undo\tstable\ttrue\nskills\texperimental\tfalse", true},
		{"undo\tstable\ttrue\nplugins\tstable\ttrue", false},
	} {
		dir := t.TempDir()
		bin := filepath.Join(dir, "codex")
		script := "#!/bin/sh\necho \"$@\" >> " + filepath.Join(dir, "calls") + "\n" +
			"if [ \"$1\" = features ]; then printf '" + tc.features + "\\n'; exit 0; fi\n" +
			"echo 'Usage: codex exec [OPTIONS] [PROMPT]\n  --json  --skip-git-repo-check  --disable <FEATURE>'\n"
		if err := os.WriteFile(bin, []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
		prefix := t.TempDir()
		for range 2 {
			names, err := features(context.Background(), bin, prefix)
			if err != nil {
				t.Fatal(err)
			}
			if names["plugins"] == tc.want {
				t.Errorf("features %q: plugins = %v", tc.features, names["plugins"])
			}
		}
		if calls, _ := os.ReadFile(filepath.Join(dir, "calls")); string(calls) != "features list\n" {
			t.Errorf("features list ran %q, want once per install", calls)
		}
	}
}

// TestCallModel: a run whose script calls tools and names no model runs
// Codex with CallModel (client.UseToolModel, which says why) (a model outside its catalogue, whose MCP tools the
// model calls directly); a model the row names is kept, and a run that
// calls no tool names none.
func TestCallModel(t *testing.T) {
	c := &Codex{Base: Info.At("0.171.0"), bin: "/bin/codex"}
	for _, tc := range []struct {
		call        bool
		model, want string
	}{
		{true, "", "model = \"local-model\"\n"},
		{true, "gpt-test", "model = \"gpt-test\"\n"},
		{false, "", ""},
	} {
		r := &client.Run{Dir: t.TempDir(), Home: t.TempDir(), Work: t.TempDir(), Prompt: "hi", Model: tc.model, CallTools: tc.call,
			Servers: []client.Server{{Name: "lab", Command: "/bin/instrlab"}}}
		if err := os.MkdirAll(r.ClientDir(), 0o755); err != nil {
			t.Fatal(err)
		}
		why := client.UseToolModel(c, r) // as the runner does
		if (why != "") != (tc.call && tc.model == "") {
			t.Errorf("call %v, model %q: why %q", tc.call, tc.model, why)
		}
		if _, err := c.Command(context.Background(), r); err != nil {
			t.Fatal(err)
		}
		cfg, err := os.ReadFile(filepath.Join(r.ClientDir(), ConfigFile))
		if err != nil {
			t.Fatal(err)
		}
		first, _, _ := strings.Cut(string(cfg), "model_provider")
		if first != tc.want {
			t.Errorf("call %v, model %q: config starts %q, want %q", tc.call, tc.model, first, tc.want)
		}
		if got := strings.Contains(string(cfg), "[mcp_servers.lab]\ndefault_tools_approval_mode = \"approve\"\ncommand = "); got != tc.call {
			t.Errorf("call %v: the lab's tools approved: %v\n%s", tc.call, got, cfg)
		}
	}
}
