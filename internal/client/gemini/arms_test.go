package gemini

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/instrlab/instrlab/internal/client"
	"github.com/instrlab/instrlab/internal/testutil"
)

// TestArmsWriteServerSettings: each arm's per-server keys land in every
// server's entry of settings.json, an arm with an approval mode trusts no
// server, and nothing else changes in it.
func TestArmsWriteServerSettings(t *testing.T) {
	base, err := Settings(testutil.TwoServers(), client.Arm{})
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range (&Gemini{Base: Info.At(DefaultVersion)}).Arms() {
		b, err := Settings(testutil.TwoServers(), a)
		if err != nil {
			t.Fatal(err)
		}
		var got, want map[string]any
		if err := json.Unmarshal(b, &got); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(base, &want); err != nil {
			t.Fatal(err)
		}
		for _, e := range want["mcpServers"].(map[string]any) {
			for k, v := range a.Settings {
				// Through JSON, as the file holds it.
				vb, _ := json.Marshal(v)
				var jv any
				_ = json.Unmarshal(vb, &jv)
				e.(map[string]any)[strings.TrimPrefix(k, "mcpServers.*.")] = jv
			}
			if a.Approval != "" {
				e.(map[string]any)["trust"] = false
			}
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("arm %s: settings mismatch (-want +got):\n%s", a.Name, diff)
		}
	}
}

// TestArmRunSaysNoArm: Gemini CLI's output names no setting: a real run in
// arm timeout-1s with initialize held 3 s, trimmed
// (testdata/arm-timeout-1s), reads as a failed server and no arm, which is
// only what instrlab set.
func TestArmRunSaysNoArm(t *testing.T) {
	dir := testutil.RunDir(t, filepath.Join("testdata", "arm-timeout-1s"),
		map[string]string{"stdout.txt": "client/stdout.txt", "stderr.txt": "client/stderr.txt"})
	o := Observe(dir, "lab")
	if o.ArmSaid() != "" {
		t.Errorf("Observe says arm %q, want none", o.ArmSaid())
	}
	if o.ServerStatus != "failed" || o.Answer != "BEGIN=NONE END=NONE LAST=NONE" || len(o.Warnings) != 1 || !strings.Contains(o.Warnings[0], "Request timed out") {
		t.Errorf("status %q answer %q warnings %v", o.ServerStatus, o.Answer, o.Warnings)
	}
}
