package cline

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/instrlab/instrlab/internal/client"
)

// TestCoreStateIsWhatAuthWrites: the core settings a 1.x or 2.x run gets
// hold every key and value that 2.18.0's own quick setup wrote for the
// same provider, key, model and base URL (testdata/auth-2.18.0, trimmed of
// the core's empty defaults), and telemetry off besides.
func TestCoreStateIsWhatAuthWrites(t *testing.T) {
	r := &client.Run{APIURL: "http://127.0.0.1:5000/", APIKey: "test-key"}
	global, secrets, err := CoreState(r, "fake-model")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []struct {
		name string
		got  []byte
		more map[string]any
	}{
		{GlobalStateFile, global, map[string]any{"telemetrySetting": "disabled"}},
		{SecretsFile, secrets, nil},
	} {
		b, err := os.ReadFile(filepath.Join("testdata", "auth-2.18.0", f.name))
		if err != nil {
			t.Fatal(err)
		}
		var want, got map[string]any
		if err := json.Unmarshal(b, &want); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(f.got, &got); err != nil {
			t.Fatalf("%s: %v\n%s", f.name, err, f.got)
		}
		for k, v := range f.more {
			want[k] = v
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s mismatch (-auth wrote +run gets):\n%s", f.name, diff)
		}
	}
}

// TestCoreStateDirect: the direct arm names the provider anthropic, with
// no base URL, its model and its key.
func TestCoreStateDirect(t *testing.T) {
	r := &client.Run{APIKey: "k", Arm: client.Arm{Direct: true}}
	global, secrets, err := CoreState(r, DefaultModel)
	if err != nil {
		t.Fatal(err)
	}
	var g, s map[string]any
	if err := json.Unmarshal(global, &g); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(secrets, &s); err != nil {
		t.Fatal(err)
	}
	if g["actModeApiProvider"] != "anthropic" || g["actModeApiModelId"] != DirectModel || g["openAiBaseUrl"] != nil || s["apiKey"] != "k" {
		t.Errorf("direct arm: globalState %v, secrets %v", g, s)
	}
}
