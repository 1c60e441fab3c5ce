package cline

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/instrlab/instrlab/internal/client"
	"github.com/instrlab/instrlab/internal/testutil"
)

func TestSettings(t *testing.T) {
	r := &client.Run{APIURL: "http://127.0.0.1:5000/", APIKey: "k"}
	b, err := Providers(r, "m")
	if err != nil {
		t.Fatal(err)
	}
	var p struct {
		LastUsedProvider string `json:"lastUsedProvider"`
		Providers        map[string]struct {
			Settings  map[string]string `json:"settings"`
			UpdatedAt string            `json:"updatedAt"`
		} `json:"providers"`
	}
	if err := json.Unmarshal(b, &p); err != nil {
		t.Fatal(err)
	}
	got := p.Providers[Provider]
	want := map[string]string{"provider": Provider, "apiKey": "k", "model": "m", "baseUrl": "http://127.0.0.1:5000/v1"}
	if diff := cmp.Diff(want, got.Settings); diff != "" || p.LastUsedProvider != Provider || got.UpdatedAt == "" {
		t.Errorf("providers.json (-want +got):\n%s\nlastUsedProvider %q, updatedAt %q", diff, p.LastUsedProvider, got.UpdatedAt)
	}
	m, err := MCPSettings([]client.Server{{Name: "lab", Command: "/bin/instrlab", Args: []string{"serve", "lab"}}}, client.Arm{})
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{`"lab": {`, `"type": "stdio"`, `"command": "/bin/instrlab"`, `"disabled": false`} {
		if !strings.Contains(string(m), w) {
			t.Errorf("MCP settings lack %s:\n%s", w, m)
		}
	}
}

// TestObserveRealRun reads trimmed stdout of real runs (testdata/ROW, made
// by testdata/trim.sh from "instrlab run -client cline@3.0.65", and
// node-en-1000 from cline@2.18.0): en-1000,
// and unreachable, a run whose settings lacked updatedAt, so the client
// fell back to a hosted provider and could not connect.
func TestObserveRealRun(t *testing.T) {
	for _, tc := range []struct {
		row  string
		want []string
	}{
		{"en-1000", []string{"fake-model", "BEGIN=NONE END=NONE LAST=NONE", ""}},
		// 2.18.0: the core's messages, three plain-text replies, then
		// the yolo mode's failure (testdata/node-en-1000).
		{"node-en-1000", []string{"fake-model", "BEGIN=NONE END=NONE LAST=NONE", "[YOLO MODE] Task failed: Too many consecutive mistakes (3). The model may not be capable enough for this task. Consider using a more capable model."}},
		{"unreachable", []string{"fake-model", "", "Cannot connect to API: Unable to connect. Is the computer able to access the url?: Unable to connect. Is the computer able to access the url? (ConnectionRefused)"}},
	} {
		dir := testutil.RunDir(t, filepath.Join("testdata", tc.row), map[string]string{"stdout.txt": "client/stdout.txt"})
		o := Observe(dir, "lab")
		if diff := cmp.Diff(tc.want, []string{o.Model, o.Answer, o.ResultError}); diff != "" {
			t.Errorf("%s: Observe mismatch (-want +got):\n%s", tc.row, diff)
		}
		if len(o.Warnings) > 0 || o.ServerStatus != "" {
			t.Errorf("%s: warnings %v, status %q", tc.row, o.Warnings, o.ServerStatus)
		}
	}
}

func TestParseEventsBadInput(t *testing.T) {
	in := "{\"type\":\"run_start\",\"providerId\":\"p\",\"modelId\":\"m\"}\n[1]\n{\"type\":\"run_result\",\"finishReason\":\"error\",\"text\":\"boom\"}\n"
	ev, w := ParseEvents(strings.NewReader(in), "stdout.txt")
	if diff := cmp.Diff([]string{"p", "m", "", "boom", "error"}, []string{ev.Provider, ev.Model, ev.Answer, ev.Error, ev.Finish}); diff != "" {
		t.Errorf("ParseEvents mismatch (-want +got):\n%s", diff)
	}
	if len(w) != 1 || !strings.HasPrefix(w[0], "stdout.txt:2: ") {
		t.Errorf("warnings = %q, want one for line 2", w)
	}
	if o := Observe(t.TempDir(), "lab"); len(o.Warnings) != 1 {
		t.Errorf("missing stdout: warnings %q", o.Warnings)
	}
}

func FuzzParseEvents(f *testing.F) {
	testutil.Seed(f, filepath.Join("testdata", "en-1000", "stdout.txt"), filepath.Join("testdata", "unreachable", "stdout.txt"),
		filepath.Join("testdata", "node-en-1000", "stdout.txt"))
	f.Fuzz(func(t *testing.T, data []byte) {
		_, w := ParseEvents(strings.NewReader(string(data)), "stdout.txt")
		testutil.InFile(t, "stdout.txt", w)
	})
}

func TestMCPSettingsTwoServers(t *testing.T) {
	b, err := MCPSettings(testutil.TwoServers(), client.Arm{})
	if err != nil {
		t.Fatal(err)
	}
	testutil.ServersInOrder(t, string(b))
}
