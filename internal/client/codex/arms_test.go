package codex

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/instrlab/instrlab/internal/client"
	"github.com/instrlab/instrlab/internal/testutil"
)

func armNamed(t *testing.T, c *Codex, name string) client.Arm {
	t.Helper()
	for _, a := range c.Arms() {
		if a.Name == name {
			return a
		}
	}
	t.Fatalf("%s@%s has no arm %q", Name, c.Version, name)
	return client.Arm{}
}

// TestArmsAreConfigOverrides: an arm's settings reach codex as -c
// overrides after instrlab's own, a per-server key once per server with
// its name quoted as TOML wants; the default arm adds none.
func TestArmsAreConfigOverrides(t *testing.T) {
	c := &Codex{Base: Info.At(DefaultVersion), bin: "/bin/true"}
	servers := []client.Server{{Name: "lab", Command: "/bin/instrlab"}, {Name: "b.two", Command: "/bin/instrlab"}}
	for _, tc := range []struct {
		arm  string
		want []string
	}{
		{"default", nil},
		{"no-deferred-world-state", []string{"-c", "features.deferred_tool_world_state=false"}},
		{"ready-catalog", []string{"-c", `mcp_servers.lab.startup_readiness="catalog"`, "-c", `mcp_servers."b.two".startup_readiness="catalog"`}},
		{"startup-20s", []string{"-c", "mcp_servers.lab.startup_timeout_sec=20", "-c", `mcp_servers."b.two".startup_timeout_sec=20`}},
	} {
		r := &client.Run{Dir: t.TempDir(), Home: t.TempDir(), Work: t.TempDir(), Prompt: "hi", Servers: servers, Arm: armNamed(t, c, tc.arm)}
		if err := os.MkdirAll(r.ClientDir(), 0o755); err != nil {
			t.Fatal(err)
		}
		cmd, err := c.Command(t.Context(), r)
		if err != nil {
			t.Fatal(err)
		}
		i := slices.Index(cmd.Args, "analytics.enabled=false")
		if i < 0 || cmd.Args[len(cmd.Args)-1] != "hi" {
			t.Fatalf("%s: args %q", tc.arm, cmd.Args)
		}
		got := cmd.Args[i+1 : len(cmd.Args)-1]
		if len(got) == 0 {
			got = nil
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("arm %s: overrides mismatch (-want +got):\n%s", tc.arm, diff)
		}
	}
}

// TestArmRunSaysNoArm: Codex's output names no arm or feature (a real run
// in arm no-deferred-world-state, trimmed: testdata/arm-no-deferred-world-state,
// where the lab's text was in no request), so a run's arm is only what
// instrlab set, and Observe reports none.
func TestArmRunSaysNoArm(t *testing.T) {
	dir := testutil.RunDir(t, filepath.Join("testdata", "arm-no-deferred-world-state"),
		map[string]string{"stdout.txt": "client/stdout.txt", "stderr.txt": "client/stderr.txt"})
	o := Observe(dir, 1)
	if o.RuntimeArm != "" || o.ArmSource != "" || o.ArmSaid() != "" {
		t.Errorf("Observe says arm %q source %q, want none", o.RuntimeArm, o.ArmSource)
	}
	if o.ServerStatus != "connected (3 tools)" || o.Answer != "BEGIN=NONE END=NONE LAST=NONE" || len(o.Warnings) > 0 {
		t.Errorf("status %q answer %q warnings %v", o.ServerStatus, o.Answer, o.Warnings)
	}
}
