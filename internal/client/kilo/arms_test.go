package kilo

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/instrlab/instrlab/internal/client"
	"github.com/instrlab/instrlab/internal/testutil"
)

// TestArmsReachTheRun: each arm's variable reaches Kilo's environment and
// its settings kilo.json: the permission, or every server's timeout.
func TestArmsReachTheRun(t *testing.T) {
	k := &Kilo{Base: Info.At(DefaultVersion), bin: "/bin/kilo"}
	for _, a := range k.Arms() {
		dir := t.TempDir()
		r := &client.Run{Dir: dir, Home: filepath.Join(dir, "home"), Work: t.TempDir(), APIURL: "http://127.0.0.1:5000", APIKey: "k",
			Servers: []client.Server{{Name: "lab", Command: "/bin/instrlab"}, {Name: "two", Command: "/bin/instrlab"}}, Prompt: "hi", Arm: a}
		if err := os.MkdirAll(r.ClientDir(), 0o755); err != nil {
			t.Fatal(err)
		}
		cmd, err := k.Command(t.Context(), r)
		if err != nil {
			t.Fatal(err)
		}
		for name, v := range a.Env {
			if !slices.Contains(cmd.Env, name+"="+v) {
				t.Errorf("arm %s: environment lacks %s=%s", a.Name, name, v)
			}
		}
		b, err := os.ReadFile(filepath.Join(r.Work, ConfigFile))
		if err != nil {
			t.Fatal(err)
		}
		var cfg struct {
			Permission map[string]string         `json:"permission"`
			MCP        map[string]map[string]any `json:"mcp"`
		}
		if err := json.Unmarshal(b, &cfg); err != nil {
			t.Fatal(err)
		}
		if (a.Name == "tools-denied") != (cfg.Permission["lab_*"] == "deny") {
			t.Errorf("arm %s: permission %v", a.Name, cfg.Permission)
		}
		for _, name := range []string{"lab", "two"} {
			if got := cfg.MCP[name]["timeout"]; (a.Name == "timeout-1s") != (got == float64(1000)) {
				t.Errorf("arm %s: server %s timeout %v", a.Name, name, got)
			}
		}
	}
}

// TestArmRunSaysNoArm: Kilo's log names none of its switches: a real run
// in arm timeout-1s with initialize held 3 s, trimmed
// (testdata/arm-timeout-1s), reads as a failed server (its WARN "server
// unavailable" line) and no arm, which is only what instrlab set.
func TestArmRunSaysNoArm(t *testing.T) {
	dir := testutil.RunDir(t, filepath.Join("testdata", "arm-timeout-1s"),
		map[string]string{"stdout.txt": "client/stdout.txt", "stderr.txt": "client/stderr.txt"})
	o := (&Kilo{}).Observe(client.Evidence{Dir: dir, Servers: []string{"lab"}})
	if o.ArmSaid() != "" {
		t.Errorf("Observe says arm %q, want none", o.ArmSaid())
	}
	if o.ServerStatus != "failed" || o.Answer != "BEGIN=NONE END=NONE LAST=NONE" || len(o.Warnings) != 1 || !strings.Contains(o.Warnings[0], `"server unavailable"`) {
		t.Errorf("status %q answer %q warnings %v", o.ServerStatus, o.Answer, o.Warnings)
	}
}
