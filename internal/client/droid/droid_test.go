package droid

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/instrlab/instrlab/internal/client"
	"github.com/instrlab/instrlab/internal/testutil"
)

func newRun(t *testing.T, servers []client.Server) *client.Run {
	t.Helper()
	dir := t.TempDir()
	r := &client.Run{Dir: dir, Home: filepath.Join(dir, "home"), Work: t.TempDir(), APIURL: "http://127.0.0.1:5000/", APIKey: "dummy-key",
		Servers: servers, Prompt: "hi"}
	if err := os.MkdirAll(r.ClientDir(), 0o755); err != nil {
		t.Fatal(err)
	}
	return r
}

// TestCommand: the fake is the one custom model (an OpenAI Chat
// Completions provider at the fake's /v1, the dummy key), the lab is in
// mcp.json, and droid exec names the custom model and prints stream-json.
func TestCommand(t *testing.T) {
	r := newRun(t, []client.Server{{Name: "lab", Command: "/bin/instrlab", Args: []string{"serve", "lab"}, Env: map[string]string{"A": "1"}}})
	if _, err := New("").Command(context.Background(), r); err == nil {
		t.Fatal("Command before Provision: no error")
	}
	d := &Droid{Base: Info.At(DefaultVersion), bin: "/bin/droid"}
	cmd, err := d.Command(context.Background(), r)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"/bin/droid", "exec", "-m", "custom:fake-model", "-o", "stream-json", "hi"}, cmd.Args); diff != "" {
		t.Errorf("args mismatch (-want +got):\n%s", diff)
	}
	if !slices.Contains(cmd.Env, "FACTORY_DROID_AUTO_UPDATE_ENABLED=false") || !slices.Contains(cmd.Env, "HOME="+r.Home) {
		t.Errorf("environment %q", cmd.Env)
	}
	// A Factory key only for the releases that refuse to run without one.
	for v, want := range map[string]bool{DefaultVersion: false, KeylessSince: false, "0.117.0": true, "0.99.0": true} {
		cmd, err := (&Droid{Base: Info.At(v), bin: "/bin/droid"}).Command(context.Background(), newRun(t, r.Servers))
		if err != nil {
			t.Fatal(err)
		}
		if got := slices.Contains(cmd.Env, "FACTORY_API_KEY="+OfflineKey); got != want {
			t.Errorf("droid@%s: FACTORY_API_KEY set %v, want %v", v, got, want)
		}
	}
	var settings struct {
		CustomModels []struct {
			Model, DisplayName, BaseURL, APIKey, Provider string
		} `json:"customModels"`
	}
	read(t, filepath.Join(r.Home, ".factory", "settings.json"), &settings)
	want := []struct{ Model, DisplayName, BaseURL, APIKey, Provider string }{{"fake-model", "fake-model", "http://127.0.0.1:5000/v1", "dummy-key", Provider}}
	if diff := cmp.Diff(want, settings.CustomModels); diff != "" {
		t.Errorf("customModels mismatch (-want +got):\n%s", diff)
	}
	var mcp struct {
		MCPServers map[string]struct {
			Type, Command string
			Args          []string
			Env           map[string]string
		} `json:"mcpServers"`
	}
	read(t, filepath.Join(r.Home, ".factory", "mcp.json"), &mcp)
	lab := mcp.MCPServers["lab"]
	if diff := cmp.Diff([]string{"stdio", "/bin/instrlab", "serve lab", "1"}, []string{lab.Type, lab.Command, strings.Join(lab.Args, " "), lab.Env["A"]}); diff != "" {
		t.Errorf("mcp.json mismatch (-want +got):\n%s", diff)
	}
	for _, f := range []string{SettingsFile, MCPFile} {
		if _, err := os.Stat(filepath.Join(r.ClientDir(), f)); err != nil {
			t.Errorf("the evidence keeps no copy of %s: %v", f, err)
		}
	}
	b, err := MCPConfig([]client.Server{{Name: "lab", URL: "http://127.0.0.1:1/mcp"}}, client.Arm{})
	if err != nil {
		t.Fatal(err)
	}
	if want := `"lab": {
      "type": "http",
      "url": "http://127.0.0.1:1/mcp"
    }`; !strings.Contains(string(b), want) {
		t.Errorf("an HTTP server: mcp.json\n%s\nwant its entry\n%s", b, want)
	}
}

// TestCommandCallTools: a row whose script calls tools runs droid exec
// with --auto high (0.225.2 refuses an MCP tool below it), before the
// row's own flags and the prompt; a row that calls none runs without.
func TestCommandCallTools(t *testing.T) {
	d := &Droid{Base: Info.At(DefaultVersion), bin: "/bin/droid"}
	for _, tc := range []struct {
		call bool
		want []string
	}{
		{false, []string{"/bin/droid", "exec", "-m", "custom:fake-model", "-o", "stream-json", "--flag", "hi"}},
		{true, []string{"/bin/droid", "exec", "-m", "custom:fake-model", "-o", "stream-json", "--auto", "high", "--flag", "hi"}},
	} {
		r := newRun(t, []client.Server{{Name: "lab", Command: "/bin/instrlab", Args: []string{"serve", "lab"}}})
		r.CallTools, r.Flags = tc.call, []string{"--flag"}
		cmd, err := d.Command(context.Background(), r)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(tc.want, cmd.Args); diff != "" {
			t.Errorf("CallTools %v: args mismatch (-want +got):\n%s", tc.call, diff)
		}
	}
}

func read(t *testing.T, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

func TestCommandTwoServers(t *testing.T) {
	r := newRun(t, testutil.TwoServers())
	if _, err := (&Droid{Base: Info.At(DefaultVersion), bin: "/bin/droid"}).Command(context.Background(), r); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(r.Home, ".factory", "mcp.json"))
	if err != nil {
		t.Fatal(err)
	}
	testutil.ServersInOrder(t, string(b))
}

// TestObserveRealRun reads trimmed evidence of real runs (testdata/ROW,
// made by testdata/trim.sh): en-1000 from "instrlab run -client
// droid@0.225.2 -matrix cross"; unreachable, a run by hand whose custom
// model's base URL was a closed port (its displayName was "Fake", which
// the model id Droid prints is made of).
func TestObserveRealRun(t *testing.T) {
	for _, tc := range []struct {
		row                        string
		model, answer, resultError string
	}{
		{"en-1000", "custom:fake-model-0", "BEGIN=NONE END=NONE LAST=NONE", ""},
		{"unreachable", "custom:Fake-0", "", "Connection error."},
	} {
		dir := testutil.RunDir(t, filepath.Join("testdata", tc.row), map[string]string{"stdout.txt": "client/stdout.txt"})
		o := (&Droid{}).Observe(client.Evidence{Dir: dir, Servers: []string{"lab"}})
		if diff := cmp.Diff([]string{tc.model, tc.answer, tc.resultError, ""}, []string{o.Model, o.Answer, o.ResultError, o.ServerStatus}); diff != "" {
			t.Errorf("%s: Observe mismatch (-want +got):\n%s", tc.row, diff)
		}
		if len(o.Warnings) > 0 {
			t.Errorf("%s: warnings %q", tc.row, o.Warnings)
		}
	}
}

func TestParseBadInput(t *testing.T) {
	in := `{"type":"system","subtype":"init","model":"m"}
not json
{"type":"message","role":"assistant","text":"partial"}
{"type":"error","source":"agent_loop","message":"first"}
{"type":"error","source":"cli","message":"second"}
{"type":
`
	ev, w := ParseEvents(strings.NewReader(in), "stdout.txt")
	if diff := cmp.Diff(Events{Model: "m", Answer: "partial", Error: "first", Count: 4}, ev); diff != "" {
		t.Errorf("ParseEvents mismatch (-want +got):\n%s", diff)
	}
	if len(w) != 2 || !strings.HasPrefix(w[0], "stdout.txt:2: ") || !strings.HasPrefix(w[1], "stdout.txt:6: ") {
		t.Errorf("warnings %q, want lines 2 and 6", w)
	}
	if o := Observe(t.TempDir()); len(o.Warnings) != 1 || !strings.HasPrefix(o.Warnings[0], "client/stdout.txt: ") {
		t.Errorf("empty run dir: warnings %q", o.Warnings)
	}
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "client"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "client", "stdout.txt"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if o := Observe(dir); len(o.Warnings) != 1 || !strings.Contains(o.Warnings[0], "no JSON events") {
		t.Errorf("empty stdout: warnings %q", o.Warnings)
	}
}

func FuzzParseEvents(f *testing.F) {
	testutil.Seed(f, filepath.Join("testdata", "en-1000", "stdout.txt"), filepath.Join("testdata", "unreachable", "stdout.txt"))
	f.Fuzz(func(t *testing.T, data []byte) {
		_, w := ParseEvents(strings.NewReader(string(data)), "stdout.txt")
		testutil.InFile(t, "stdout.txt", w)
	})
}
