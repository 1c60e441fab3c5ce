package continuecli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/instrlab/instrlab/internal/client"
	"github.com/instrlab/instrlab/internal/testutil"
)

func TestConfig(t *testing.T) {
	r := &client.Run{APIURL: "http://127.0.0.1:5000/", APIKey: "k",
		Servers: []client.Server{{Name: "lab", Command: "/bin/instrlab", Args: []string{"serve", "lab"}, Env: map[string]string{"A": "1"}}}}
	b, err := Config(r, "m")
	if err != nil {
		t.Fatal(err)
	}
	// Written as JSON, which YAML reads as it is.
	var cfg struct {
		Schema string `json:"schema"`
		Models []struct {
			Provider, Model, APIKey, APIBase string
			Roles                            []string
		} `json:"models"`
		MCPServers []client.Server `json:"mcpServers"`
	}
	if err := json.Unmarshal(b, &cfg); err != nil {
		t.Fatal(err)
	}
	if cfg.Schema != "v1" || len(cfg.Models) != 1 {
		t.Fatalf("config.yaml: %s", b)
	}
	m := cfg.Models[0]
	if diff := cmp.Diff([]string{"openai", "m", "k", "http://127.0.0.1:5000/v1/", "chat"}, []string{m.Provider, m.Model, m.APIKey, m.APIBase, strings.Join(m.Roles, ",")}); diff != "" {
		t.Errorf("model mismatch (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]client.Server{r.Primary()}, cfg.MCPServers); diff != "" {
		t.Errorf("mcpServers mismatch (-want +got):\n%s", diff)
	}
}

// files maps a fixture's files to their places in a run dir.
var files = map[string]string{
	"stdout.txt":   "client/stdout.txt",
	"stderr.txt":   "client/stderr.txt",
	"session.json": "home/.continue/sessions/b1d4364c-2a58-4304-8d50-f735d45f157b.json",
	"cn.log":       "home/.continue/logs/cn.log",
}

// TestObserveRealRun reads trimmed evidence of real runs (testdata/ROW,
// made by testdata/trim.sh): none and en-1000 from "instrlab run -client
// continue@1.5.47"; unreachable, a run by hand whose model API was a
// closed port; no-server, one whose MCP server command did not exist,
// which stops a headless run before any model request.
func TestObserveRealRun(t *testing.T) {
	for _, tc := range []struct {
		row                           string
		model, answer, status, errMsg string
		warnings                      int
	}{
		{"none", "fake-model", "BEGIN=NONE END=NONE LAST=NONE", "", "", 0},
		{"en-1000", "fake-model", "BEGIN=NONE END=NONE LAST=NONE", "", "", 0},
		{"unreachable", "fake-model", "", "", "Connection error.", 0},
		{"no-server", "fake-model", "", "failed", "MCP server(s) failed to load:\nlab: spawn /nonexistent/lab ENOENT", 1},
	} {
		src := filepath.Join("testdata", tc.row)
		present := map[string]string{}
		for from, to := range files {
			if _, err := os.Stat(filepath.Join(src, from)); err == nil {
				present[from] = to
			}
		}
		o := Observe(testutil.RunDir(t, src, present), "lab")
		if diff := cmp.Diff([]string{tc.model, tc.answer, tc.status, tc.errMsg}, []string{o.Model, o.Answer, o.ServerStatus, o.ResultError}); diff != "" {
			t.Errorf("%s: Observe mismatch (-want +got):\n%s", tc.row, diff)
		}
		if len(o.Warnings) != tc.warnings {
			t.Errorf("%s: warnings %q, want %d", tc.row, o.Warnings, tc.warnings)
		}
		for _, w := range o.Warnings {
			if !strings.HasPrefix(w, "home/.continue/logs/cn.log:") || !strings.Contains(w, "Failed to connect to MCP server") {
				t.Errorf("%s: warning %q", tc.row, w)
			}
		}
	}
}

func TestParseBadInput(t *testing.T) {
	log := "2026-12-01 03:25:45.398 [8ba7c88f] [debug]: streamChatResponse called {\"model\":\n" +
		"2026-12-01 03:25:45.399 [8ba7c88f] [error]: Failed to connect to MCP server {\"error\":{\"name\":\"lab\",\"error\":\"boom\"}}\n" +
		"a continuation line\n" +
		"2026-12-01 03:25:45.400 [8ba7c88f] [error]: Failed to connect to MCP server [\n"
	l, w := ParseLog(strings.NewReader(log), "cn.log")
	if diff := cmp.Diff(map[string]string{"lab": "boom"}, l.Failed); diff != "" || l.Model != "" {
		t.Errorf("ParseLog: model %q, failed mismatch (-want +got):\n%s", l.Model, diff)
	}
	if len(w) != 2 || !strings.HasPrefix(w[0], "cn.log:1: ") || !strings.HasPrefix(w[1], "cn.log:4: ") {
		t.Errorf("ParseLog warnings = %q, want lines 1 and 4", w)
	}
	if len(l.Problems) != 2 {
		t.Errorf("problems = %q, want the two error lines", l.Problems)
	}
	if _, w := ParseSession(strings.NewReader("[1]"), "s.json"); len(w) != 1 || !strings.HasPrefix(w[0], "s.json: ") {
		t.Errorf("ParseSession warnings = %q", w)
	}
	s, w := ParseSession(strings.NewReader(`{"history":[{"message":{"role":"assistant","content":[{"type":"text","text":"a"},{"type":"image"},{"type":"text","text":"b"}]}},{"message":{"role":"assistant","content":7}}]}`), "s.json")
	if s.Answer != "ab" || s.Messages != 2 || len(w) != 1 || !strings.HasPrefix(w[0], "s.json: history[1]: ") {
		t.Errorf("ParseSession = %+v, warnings %q", s, w)
	}
	msg, w := ParseStderr(strings.NewReader("(node:1) Warning: x\n{\"status\":\n{\"status\":\"error\",\"message\":\"m\"}\n"), "stderr.txt")
	if msg != "m" || len(w) != 1 || !strings.HasPrefix(w[0], "stderr.txt:2: ") {
		t.Errorf("ParseStderr = %q, warnings %q", msg, w)
	}
	if o := Observe(t.TempDir(), "lab"); len(o.Warnings) != 3 {
		t.Errorf("empty run dir: warnings %q, want stdout, stderr and the log missing", o.Warnings)
	}
}

func FuzzParseLog(f *testing.F) {
	testutil.Seed(f, filepath.Join("testdata", "en-1000", "cn.log"), filepath.Join("testdata", "no-server", "cn.log"))
	f.Fuzz(func(t *testing.T, data []byte) {
		_, w := ParseLog(strings.NewReader(string(data)), "cn.log")
		testutil.InFile(t, "cn.log", w)
	})
}

func FuzzParseSession(f *testing.F) {
	testutil.Seed(f, filepath.Join("testdata", "en-1000", "session.json"))
	f.Fuzz(func(t *testing.T, data []byte) {
		_, w := ParseSession(strings.NewReader(string(data)), "s.json")
		testutil.InFile(t, "s.json", w)
	})
}

func FuzzParseStderr(f *testing.F) {
	testutil.Seed(f, filepath.Join("testdata", "unreachable", "stderr.txt"), filepath.Join("testdata", "no-server", "stderr.txt"))
	f.Fuzz(func(t *testing.T, data []byte) {
		_, w := ParseStderr(strings.NewReader(string(data)), "stderr.txt")
		testutil.InFile(t, "stderr.txt", w)
	})
}

func TestConfigTwoServers(t *testing.T) {
	b, err := Config(&client.Run{APIURL: "http://127.0.0.1:5000", Servers: testutil.TwoServers()}, "m")
	if err != nil {
		t.Fatal(err)
	}
	testutil.ServersInOrder(t, string(b))
}
