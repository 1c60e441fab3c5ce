package qwen

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/instrlab/instrlab/internal/client"
	"github.com/instrlab/instrlab/internal/testutil"
)

// TestArmsWriteTheirSettings: each arm's keys land in settings.json, at
// their path or, per server, in every server's entry.
func TestArmsWriteTheirSettings(t *testing.T) {
	for _, tc := range []struct {
		arm   string
		tools map[string]any // settings' "tools"
		entry map[string]any // added to every server's entry
	}{
		{"default", nil, nil},
		{"code-mode-only", map[string]any{"codeModeOnly": true}, nil},
		{"tool-search-50", map[string]any{"toolSearch": map[string]any{"threshold": float64(50)}}, nil},
		{"timeout-1s", nil, map[string]any{"timeout": float64(1000)}},
	} {
		var arm client.Arm
		for _, a := range (&Qwen{Base: Info.At(DefaultVersion)}).Arms() {
			if a.Name == tc.arm {
				arm = a
			}
		}
		if arm.Name == "" {
			t.Fatalf("no arm %s", tc.arm)
		}
		b, err := Settings(testutil.TwoServers(), arm)
		if err != nil {
			t.Fatal(err)
		}
		var got struct {
			Tools      map[string]any            `json:"tools"`
			MCPServers map[string]map[string]any `json:"mcpServers"`
		}
		if err := json.Unmarshal(b, &got); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(tc.tools, got.Tools); diff != "" {
			t.Errorf("arm %s: tools mismatch (-want +got):\n%s", tc.arm, diff)
		}
		if len(got.MCPServers) != 2 {
			t.Fatalf("arm %s: servers %v", tc.arm, got.MCPServers)
		}
		for name, e := range got.MCPServers {
			for k, v := range tc.entry {
				if e[k] != v {
					t.Errorf("arm %s: server %s: %s = %v, want %v", tc.arm, name, k, e[k], v)
				}
			}
			if _, ok := e["timeout"]; ok && tc.entry == nil {
				t.Errorf("arm %s: server %s has a timeout", tc.arm, name)
			}
		}
	}
}

// TestArmRunSaysNoArm: Qwen Code's output names none of these settings: a
// real run in arm timeout-1s with initialize held 3 s, trimmed
// (testdata/arm-timeout-1s), reads as a disconnected server and no arm,
// which is only what instrlab set.
func TestArmRunSaysNoArm(t *testing.T) {
	dir := testutil.RunDir(t, filepath.Join("testdata", "arm-timeout-1s"),
		map[string]string{"stdout.txt": "client/stdout.txt", "debug.txt": "home/.qwen/debug/session.txt"})
	o := Observe(dir, "lab")
	if o.ArmSaid() != "" {
		t.Errorf("Observe says arm %q, want none", o.ArmSaid())
	}
	if o.ServerStatus != "disconnected" || o.Answer != "BEGIN=NONE END=NONE LAST=NONE" || len(o.Warnings) == 0 || !strings.Contains(o.Warnings[0], "Request timed out") {
		t.Errorf("status %q answer %q warnings %v", o.ServerStatus, o.Answer, o.Warnings)
	}
}
