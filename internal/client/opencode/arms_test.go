package opencode

import (
	"encoding/json"
	"maps"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/instrlab/instrlab/internal/client"
	"github.com/instrlab/instrlab/internal/testutil"
)

func armNamed(t *testing.T, name string) client.Arm {
	t.Helper()
	for _, a := range (&Opencode{Base: Info.At(DefaultVersion)}).Arms() {
		if a.Name == name {
			return a
		}
	}
	t.Fatalf("%s@%s has no arm %q", Name, DefaultVersion, name)
	return client.Arm{}
}

// TestArmsWriteTheirSettings: an arm's settings land in opencode.json,
// a per-server key (mcp.*.KEY) in every server's entry, the others at
// their path; the servers keep the run's order.
func TestArmsWriteTheirSettings(t *testing.T) {
	r := &client.Run{APIURL: "http://127.0.0.1:4321", Servers: testutil.TwoServers()}
	r.Arm = client.Arm{Name: "both", Settings: map[string]any{}}
	for _, a := range []client.Arm{armNamed(t, "timeout-1s"), armNamed(t, "tools-denied")} {
		maps.Copy(r.Arm.Settings, a.Settings)
	}
	b, err := Config(r, "", KeyRef, nil)
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
	if diff := cmp.Diff(map[string]string{"lab_*": "deny"}, cfg.Permission); diff != "" {
		t.Errorf("permission mismatch (-want +got):\n%s", diff)
	}
	if len(cfg.MCP) != len(r.Servers) {
		t.Fatalf("mcp has %d servers, want %d:\n%s", len(cfg.MCP), len(r.Servers), b)
	}
	for _, s := range r.Servers {
		if got := cfg.MCP[s.Name]["timeout"]; got != float64(1000) {
			t.Errorf("server %s: timeout %v, want 1000", s.Name, got)
		}
	}
	if _, err := Config(&client.Run{Servers: r.Servers, Arm: client.Arm{Name: "x", Settings: map[string]any{"model.x": 1}}}, "", KeyRef, nil); err == nil {
		t.Error("a setting under a key that is not an object was written over it")
	}
}

// TestArmRunSaysNoArm: opencode's output (its DEBUG log and JSON events)
// names none of its switches: real runs in arms tools-denied and
// timeout-1s, trimmed (testdata/arm-*; the lab's text and tools were in
// no request), read as runs with no arm, which is only what instrlab set.
// A server that did not connect in time is a failed server.
func TestArmRunSaysNoArm(t *testing.T) {
	for _, tc := range []struct {
		arm, status string
		warnings    int
	}{
		{"tools-denied", "no error in log", 0},
		{"timeout-1s", "failed", 1},
	} {
		dir := testutil.RunDir(t, filepath.Join("testdata", "arm-"+tc.arm),
			map[string]string{"stdout.txt": "client/stdout.txt", "stderr.txt": "client/stderr.txt"})
		o := Observe(dir, "lab")
		if o.ArmSaid() != "" {
			t.Errorf("%s: Observe says arm %q, want none", tc.arm, o.ArmSaid())
		}
		if o.ServerStatus != tc.status || o.Answer != "BEGIN=NONE END=NONE LAST=NONE" || len(o.Warnings) != tc.warnings {
			t.Errorf("%s: status %q answer %q warnings %v, want %q and %d warnings", tc.arm, o.ServerStatus, o.Answer, o.Warnings, tc.status, tc.warnings)
		}
	}
}
