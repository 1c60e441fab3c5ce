package droid

import (
	"context"
	"slices"
	"testing"

	"github.com/instrlab/instrlab/internal/client"
	"github.com/instrlab/instrlab/internal/testutil"
)

// TestArmsReachTheRun: each arm's variable reaches Droid's environment and
// its per-server settings every server's entry in mcp.json.
func TestArmsReachTheRun(t *testing.T) {
	d := &Droid{Base: Info.At(DefaultVersion), bin: "/bin/droid"}
	if len(d.Arms()) < 2 {
		t.Fatalf("arms of %s: %v", DefaultVersion, d.Arms())
	}
	for _, a := range d.Arms() {
		r := newRun(t, []client.Server{{Name: "lab", Command: "/bin/instrlab"}, {Name: "two", Command: "/bin/instrlab"}})
		r.Arm = a
		cmd, err := d.Command(context.Background(), r)
		if err != nil {
			t.Fatal(err)
		}
		for name, v := range a.Env {
			if !slices.Contains(cmd.Env, name+"="+v) {
				t.Errorf("arm %s: environment lacks %s=%s", a.Name, name, v)
			}
		}
		var mcp struct {
			MCPServers map[string]map[string]any `json:"mcpServers"`
		}
		read(t, r.Home+"/.factory/mcp.json", &mcp)
		for _, server := range []string{"lab", "two"} {
			e := mcp.MCPServers[server]
			if got := e["connectTimeout"]; (a.Name == "connect-timeout-1s") != (got == float64(1000)) {
				t.Errorf("arm %s: server %s connectTimeout %v", a.Name, server, got)
			}
			tools, _ := e["disabledTools"].([]any)
			if (a.Name == "tools-disabled") != (len(tools) == 3) {
				t.Errorf("arm %s: server %s disabledTools %v", a.Name, server, e["disabledTools"])
			}
		}
	}
}

// TestArmRunSaysNoArm: Droid's events name no arm; a real run reads as
// none, which is only what instrlab set.
func TestArmRunSaysNoArm(t *testing.T) {
	dir := testutil.RunDir(t, "testdata/en-1000", map[string]string{"stdout.txt": "client/stdout.txt"})
	if o := Observe(dir); o.ArmSaid() != "" {
		t.Errorf("Observe says arm %q, want none", o.ArmSaid())
	}
}
