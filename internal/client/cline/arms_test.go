package cline

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/instrlab/instrlab/internal/client"
	"github.com/instrlab/instrlab/internal/testutil"
)

// TestArmWritesServerTimeout: arm timeout-20s sets "timeout" in every
// server's entry of cline_mcp_settings.json; the default arm sets none.
func TestArmWritesServerTimeout(t *testing.T) {
	c := &Cline{Base: Info.At(DefaultVersion)}
	for _, a := range c.Arms() {
		b, err := MCPSettings(testutil.TwoServers(), a)
		if err != nil {
			t.Fatal(err)
		}
		var got struct {
			MCPServers map[string]map[string]any `json:"mcpServers"`
		}
		if err := json.Unmarshal(b, &got); err != nil {
			t.Fatal(err)
		}
		if len(got.MCPServers) != 2 {
			t.Fatalf("%s: %d servers:\n%s", a.Name, len(got.MCPServers), b)
		}
		want := any(nil)
		if a.Name == "timeout-20s" {
			want = float64(20)
		}
		for name, e := range got.MCPServers {
			if e["timeout"] != want || e["type"] != "stdio" {
				t.Errorf("arm %s: server %s: entry %v, want timeout %v", a.Name, name, e, want)
			}
		}
	}
	if len(c.Arms()) < 2 || !client.DefaultArm(c).Default {
		t.Errorf("arms %v", c.Arms())
	}
}

// TestArmRunSaysNoArm: Cline's JSON output says nothing about its MCP
// servers or settings: a real run in arm timeout-20s (the lab's tools
// were sent, initialize held 8 s), trimmed (testdata/arm-timeout-20s),
// reads as a run with no arm, which is only what instrlab set.
func TestArmRunSaysNoArm(t *testing.T) {
	dir := testutil.RunDir(t, filepath.Join("testdata", "arm-timeout-20s"), map[string]string{"stdout.txt": "client/stdout.txt"})
	o := Observe(dir, "lab")
	if o.ArmSaid() != "" || o.ServerStatus != "" {
		t.Errorf("Observe says arm %q, server %q; want neither", o.ArmSaid(), o.ServerStatus)
	}
	if o.Model != "fake-model" || o.Answer != "BEGIN=NONE END=NONE LAST=NONE" || len(o.Warnings) > 0 {
		t.Errorf("model %q answer %q warnings %v", o.Model, o.Answer, o.Warnings)
	}
}
