package grok

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/instrlab/instrlab/internal/client"
	"github.com/instrlab/instrlab/internal/testutil"
)

// TestObserveRealRun reads the stdout of a real headless run (instrlab
// run -client grok -row en-1000, 2026-12-06): Grok CLI's own lines about
// the settings it saved are not messages; the answer is the assistant's
// last message.
func TestObserveRealRun(t *testing.T) {
	dir := testutil.RunDir(t, filepath.Join("testdata", "en-1000"), map[string]string{"stdout.txt": "client/stdout.txt"})
	o := New("").Observe(client.Evidence{Dir: dir, Servers: []string{"lab"}})
	got := []string{o.ServerStatus, o.Answer, o.ResultError}
	if diff := cmp.Diff([]string{"", "BEGIN=NONE END=NONE LAST=NONE", ""}, got); diff != "" {
		t.Errorf("Observe mismatch (-want +got):\n%s", diff)
	}
	if len(o.Warnings) > 0 || !slices.Equal(o.Files, []string{"client/stdout.txt"}) {
		t.Errorf("warnings %v files %v", o.Warnings, o.Files)
	}
}

// TestObserveFailed: a failed turn is one message "Error: …", its error;
// a line that starts as JSON but is not is a warning.
func TestObserveFailed(t *testing.T) {
	src := t.TempDir()
	stdout := `{"role":"assistant","content":"Error: 401 bad key"}` + "\n{not json\n"
	if err := os.WriteFile(filepath.Join(src, "stdout.txt"), []byte(stdout), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := testutil.RunDir(t, src, map[string]string{"stdout.txt": "client/stdout.txt"})
	o := New("").Observe(client.Evidence{Dir: dir, Servers: []string{"lab"}})
	if o.ResultError != "401 bad key" || o.Answer != "" || len(o.Warnings) != 1 || !strings.Contains(o.Warnings[0], "stdout.txt:2") {
		t.Errorf("error %q answer %q warnings %v", o.ResultError, o.Answer, o.Warnings)
	}
}

// TestSettings: the run's servers in .grok/settings.json, a stdio server
// as its transport, a URL as the "http" transport its README names; the
// model.
func TestSettings(t *testing.T) {
	r := &client.Run{Servers: []client.Server{
		{Name: "lab", Command: "/bin/lab", Args: []string{"serve"}, Env: map[string]string{"A": "1"}},
		{Name: "web", URL: "http://127.0.0.1:9/mcp"},
	}}
	b, err := Settings(r, "m")
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"model": "m", "mcpServers": map[string]any{
		"lab": map[string]any{"name": "lab", "transport": map[string]any{"type": "stdio", "command": "/bin/lab", "args": []any{"serve"}, "env": map[string]any{"A": "1"}}},
		"web": map[string]any{"name": "web", "transport": map[string]any{"type": "http", "url": "http://127.0.0.1:9/mcp"}},
	}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("settings mismatch (-want +got):\n%s", diff)
	}
}

// TestHeadless runs headless.mjs on stand-ins for Grok CLI: one that
// prints the turn's messages and then never exits (as Grok CLI 0.0.34
// does while its MCP servers run) is ended after its last message, with
// status 0 and its lines passed through; one that fails exits with its own
// status; one that ends by itself keeps its status.
func TestHeadless(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("no node on PATH")
	}
	dir := t.TempDir()
	wrapper := filepath.Join(dir, HeadlessFile)
	if err := os.WriteFile(wrapper, headless, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name, script, out string
		code              int
	}{
		{"lingers", `console.log("✅ saved"); console.log(JSON.stringify({role: "user", content: "q"})); console.log(JSON.stringify({role: "assistant", content: "a"})); setInterval(() => {}, 1000);`,
			"✅ saved\n{\"role\":\"user\",\"content\":\"q\"}\n{\"role\":\"assistant\",\"content\":\"a\"}\n", 0},
		{"fails", `console.log(JSON.stringify({role: "assistant", content: "Error: x"})); process.exit(1);`,
			"{\"role\":\"assistant\",\"content\":\"Error: x\"}\n", 1},
		{"tool call then exit", `console.log(JSON.stringify({role: "assistant", content: "", tool_calls: [{id: "1"}]})); process.exitCode = 3;`,
			"{\"role\":\"assistant\",\"content\":\"\",\"tool_calls\":[{\"id\":\"1\"}]}\n", 3},
	} {
		t.Run(tt.name, func(t *testing.T) {
			script := filepath.Join(dir, strings.ReplaceAll(tt.name, " ", "-")+".mjs")
			if err := os.WriteFile(script, []byte(tt.script), 0o644); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			out, err := exec.CommandContext(ctx, node, wrapper, script, "-p", "q").Output()
			code := 0
			if ee, ok := err.(*exec.ExitError); ok {
				code = ee.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			if string(out) != tt.out || code != tt.code {
				t.Errorf("stdout %q status %d, want %q %d", out, code, tt.out, tt.code)
			}
		})
	}
}
