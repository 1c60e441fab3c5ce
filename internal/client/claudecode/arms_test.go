package claudecode

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/instrlab/instrlab/internal/client"
)

// TestDebugArm reads the arm and its source from debug logs of real runs
// in each arm (testdata/arms, trimmed).
func TestDebugArm(t *testing.T) {
	for _, tc := range []struct{ file, arm, source string }{
		{"2.1.285-v2", "v2", "default"},
		{"2.1.285-v1", "v1", "env"},
		{"2.1.285-v1-flag", "v1", "growthbook"},
		{"2.1.285-seed", "v2", "growthbook"},
		{"2.1.328-v1-compat", "v2", "env_v1_compat"},
	} {
		f, err := os.Open(filepath.Join("testdata", "arms", tc.file+".debug.log"))
		if err != nil {
			t.Fatal(err)
		}
		d, warns := ParseDebug(f, tc.file)
		f.Close()
		if d.RuntimeArm != tc.arm || d.ArmSource != tc.source || len(warns) > 0 {
			t.Errorf("%s: arm %q source %q (warnings %v), want %q from %q", tc.file, d.RuntimeArm, d.ArmSource, warns, tc.arm, tc.source)
		}
	}
}

// TestArmsWriteTheirSwitches checks that a run in an arm gets what the
// arm sets: its environment, its cached flag values in ~/.claude.json
// (read only with the disk cache switch), its settings keys.
func TestArmsWriteTheirSwitches(t *testing.T) {
	c := &Claude{Base: Info.At("2.1.285"), bin: "/bin/true", flags: map[string]bool{"--settings": true, "--strict-mcp-config": true, "--debug-file": true}}
	var seed client.Arm
	for _, a := range c.Arms() {
		if a.Name == "seed" {
			seed = a
		}
	}
	seed.Settings = map[string]any{"k": 1}
	dir := t.TempDir()
	r := &client.Run{Dir: dir, Home: filepath.Join(dir, "home"), Tmp: dir, Work: dir, Arm: seed, Prompt: "p"}
	cmd, err := c.Command(t.Context(), r)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(r.Home, ".claude.json"))
	if err != nil {
		t.Fatal(err)
	}
	if want := "{\n  \"cachedGrowthBookFeatures\": {\n    \"tengu_brindle_causeway\": true,\n    \"tengu_mcp_protocol_negotiation_stdio\": true\n  }\n}\n"; string(b) != want {
		t.Errorf("~/.claude.json:\n%s\nwant\n%s", b, want)
	}
	env := map[string]bool{}
	for _, e := range cmd.Env {
		env[e] = true
	}
	for _, e := range []string{diskCacheEnv + "=1", "CLAUDE_CODE_MODEL_CAPABILITIES=-mid_conv_system"} {
		if !env[e] {
			t.Errorf("environment lacks %s", e)
		}
	}
	found := false
	for i, a := range cmd.Args {
		if a == "--settings" && i+1 < len(cmd.Args) {
			found = cmd.Args[i+1] == `{"disableAllHooks":true,"k":1}`
		}
	}
	if !found {
		t.Errorf("--settings does not carry the arm's key: %q", cmd.Args)
	}
}

// TestEveryVersionHasOneDefaultArm: each declared arm list names one
// default, which sets nothing.
func TestEveryVersionHasOneDefaultArm(t *testing.T) {
	for v, list := range arms {
		n := 0
		for _, a := range list {
			if a.Default {
				n++
				if a.How() != "nothing set" {
					t.Errorf("%s: default arm %s sets %s", v, a.Name, a.How())
				}
			}
		}
		if n != 1 {
			t.Errorf("%s: %d default arms", v, n)
		}
	}
}
