package opencode

import (
	"encoding/json"
	"flag"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/instrlab/instrlab/internal/client"
	"github.com/instrlab/instrlab/internal/testutil"
)

var update = flag.Bool("update", false, "rewrite the golden files")

func TestConfig(t *testing.T) {
	for _, tt := range []struct {
		name string
		env  map[string]string
	}{{"config.golden.json", nil}, {"config-env.golden.json", map[string]string{"A": "1"}}} {
		r := &client.Run{APIURL: "http://127.0.0.1:4321", Servers: []client.Server{{Name: "lab", Command: "/bin/instrlab",
			Args: []string{"serve", "lab"}, Env: tt.env}}}
		got, err := Config(r, "", KeyRef, nil)
		if err != nil {
			t.Fatal(err)
		}
		testutil.Golden(t, filepath.Join("testdata", tt.name), got, *update)
		// opencode drops a server whose environment is null.
		if strings.Contains(string(got), `"environment": null`) {
			t.Errorf("%s: environment is null", tt.name)
		}
	}
}

// TestObserveRealRun reads trimmed evidence of a real run (testdata/ROW,
// made by testdata/trim.sh from "instrlab run -client opencode@1.18.33").
func TestObserveRealRun(t *testing.T) {
	dir := testutil.RunDir(t, filepath.Join("testdata", "en-1000"),
		map[string]string{"stdout.txt": "client/stdout.txt", "stderr.txt": "client/stderr.txt"})
	o := Observe(dir, "lab")
	got := []string{o.ServerStatus, o.Answer, o.ResultError}
	if diff := cmp.Diff([]string{"no error in log", "BEGIN=PINTAIL-8601 END=PINTAIL-3421 LAST=798", ""}, got); diff != "" {
		t.Errorf("Observe mismatch (-want +got):\n%s", diff)
	}
	if len(o.Warnings) > 0 {
		t.Errorf("warnings: %v", o.Warnings)
	}
}

func TestParseEvents(t *testing.T) {
	in := strings.Join([]string{
		`{"type":"step_start","sessionID":"s1","part":{"type":"step-start"}}`,
		`{"type":"text","sessionID":"s1","part":{"type":"text","text":"calling"}}`,
		`{"type":"tool_use","part":{"type":"tool","tool":"bash"}}`,
		`{"type":"step_finish","part":{"type":"step-finish","reason":"tool-calls"}}`,
		`{"type":"step_start","part":{}}`,
		`{"type":"text","part":{"type":"text","text":"BEGIN=NONE"}}`,
		`{"type":"text","part":null}`,
		`[1]`,
		`{"type":"error","error":{"name":"APIError","data":{"message":"bad gateway"}}}`,
		`{"type":"step_finish","part":{"type":"step-finish","reason":"stop"}}`,
	}, "\n")
	ev, w := ParseEvents(strings.NewReader(in), "stdout.txt")
	want := Events{SessionID: "s1", Answer: "BEGIN=NONE", Error: "bad gateway", Finish: []string{"tool-calls", "stop"}, Tools: []string{"bash"}, Count: 9}
	if diff := cmp.Diff(want, ev); diff != "" {
		t.Errorf("ParseEvents mismatch (-want +got):\n%s", diff)
	}
	if len(w) != 1 || !strings.HasPrefix(w[0], "stdout.txt:8: ") {
		t.Errorf("warnings %q", w)
	}
}

func TestParseLog(t *testing.T) {
	in := "timestamp=x level=ERROR run=r message=\"Ignoring MCP config entry without type\" key=lab\n" +
		"timestamp=x level=INFO message=\"mcp fine\"\n" +
		"timestamp=x level=ERROR message=\"other\"\n" +
		"WARN  2026-12-01T03:40:27 +415ms service=mcp key=lab failed\n" +
		"INFO  2026-12-01T03:40:27 +415ms service=mcp key=lab connected\n"
	l, w := ParseLog(strings.NewReader(in), "stderr.txt")
	want := Log{Problems: []string{`stderr.txt:1: timestamp=x level=ERROR run=r message="Ignoring MCP config entry without type" key=lab`,
		`stderr.txt:4: WARN  2026-12-01T03:40:27 +415ms service=mcp key=lab failed`}, Lines: 5}
	if diff := cmp.Diff(want, l); diff != "" || len(w) > 0 {
		t.Errorf("ParseLog mismatch (-want +got):\n%s\nwarnings %v", diff, w)
	}
}

func FuzzParseEvents(f *testing.F) {
	testutil.Seed(f, filepath.Join("testdata", "en-1000", "stdout.txt"))
	f.Add([]byte(`{"type":"error","error":"plain"}` + "\n" + `{"type":"error"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		_, w := ParseEvents(strings.NewReader(string(data)), "stdout.txt")
		testutil.InFile(t, "stdout.txt", w)
	})
}

func FuzzParseLog(f *testing.F) {
	testutil.Seed(f, filepath.Join("testdata", "en-1000", "stderr.txt"))
	f.Fuzz(func(t *testing.T, data []byte) {
		l, w := ParseLog(strings.NewReader(string(data)), "stderr.txt")
		testutil.InFile(t, "stderr.txt", append(w, l.Problems...))
	})
}

func TestConfigTwoServers(t *testing.T) {
	b, err := Config(&client.Run{APIURL: "http://127.0.0.1:4321", Servers: testutil.TwoServers()}, "", KeyRef, nil)
	if err != nil {
		t.Fatal(err)
	}
	testutil.ServersInOrder(t, string(b))
	var cfg struct {
		MCP map[string]struct {
			Command     []string          `json:"command"`
			Environment map[string]string `json:"environment"`
		} `json:"mcp"`
	}
	if err := json.Unmarshal(b, &cfg); err != nil {
		t.Fatal(err)
	}
	if got := cfg.MCP["alpha"]; len(got.Command) != 5 || got.Environment["A"] != "1" {
		t.Errorf("server alpha = %+v, want its command and environment", got)
	}
}
