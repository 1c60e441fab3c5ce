package copilot

import (
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/instrlab/instrlab/internal/client"
	"github.com/instrlab/instrlab/internal/evidence"
	"github.com/instrlab/instrlab/internal/testutil"
)

func TestMCPConfig(t *testing.T) {
	got, err := MCPConfig([]client.Server{{Name: "lab", Command: "/bin/instrlab", Args: []string{"serve", "lab"}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"lab": {`, `"type": "local"`, `"command": "/bin/instrlab"`, `"tools": [`} {
		if !strings.Contains(string(got), want) {
			t.Errorf("config lacks %s:\n%s", want, got)
		}
	}
	if strings.Contains(string(got), `"env"`) {
		t.Errorf("config has an env without one being set:\n%s", got)
	}
}

// TestObserveRealRun reads trimmed evidence of real runs (testdata/ROW,
// made by testdata/trim.sh from "instrlab run -client copilot@1.0.102"):
// en-1000 in the default arm, en-1000-all with
// --allow-all-mcp-server-instructions.
func TestObserveRealRun(t *testing.T) {
	for _, tc := range []struct {
		row  string
		want []string
	}{
		{"en-1000", []string{"connected", "BEGIN=NONE END=NONE LAST=NONE", "fake-model", ""}},
		{"en-1000-all", []string{"connected", "BEGIN=PINTAIL-8601 END=PINTAIL-3421 LAST=798", "fake-model", ""}},
		// 1.0.11 names its model in session.tools_updated only, and logs
		// each step of the lab's start at ERROR, which are no problems.
		{"en-1000-1.0.11", []string{"connected", "BEGIN=NONE END=NONE LAST=NONE", "fake-model", ""}},
	} {
		dir := testutil.RunDir(t, filepath.Join("testdata", tc.row),
			map[string]string{"stdout.txt": "client/stdout.txt", "process.log": "client/logs/process-1.log"})
		o := Observe(dir, "lab")
		got := []string{o.ServerStatus, o.Answer, o.Model, o.ResultError}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%s: Observe mismatch (-want +got):\n%s", tc.row, diff)
		}
		if diff := cmp.Diff([]string{"client/stdout.txt", "client/logs/process-1.log"}, o.Files); diff != "" {
			t.Errorf("%s: files mismatch (-want +got):\n%s", tc.row, diff)
		}
		if len(o.Warnings) > 0 {
			t.Errorf("%s: warnings: %v", tc.row, o.Warnings)
		}
	}
}

// TestReceivedInstructions: in both arms the client's events say it
// received the lab's whole text; only the requests tell whether it used it.
func TestReceivedInstructions(t *testing.T) {
	for _, row := range []string{"en-1000", "en-1000-all"} {
		dir := testutil.RunDir(t, filepath.Join("testdata", row), map[string]string{"stdout.txt": "client/stdout.txt"})
		var ev Events
		(&client.Observation{}).Read(dir, evidence.StdoutFile, func(f io.Reader, name string) []string {
			var w []string
			ev, w = ParseEvents(f, name)
			return w
		})
		got := ev.Received["lab"]
		if len(got) != 1000 || !strings.HasPrefix(got, "BEGIN codeword: PINTAIL-8601") || !strings.HasSuffix(got, "END codeword: PINTAIL-3421.") {
			t.Errorf("%s: received %d chars: %.60q…", row, len(got), got)
		}
	}
}

// TestObserveUnreachable reads a real run whose provider URL was a closed
// port: the client retried, then reported a session.error. The dummy key
// "x" shows the client's own redaction at work: it starred every "x" in
// its output, exitCode included, so the error comes from session.error.
func TestObserveUnreachable(t *testing.T) {
	dir := testutil.RunDir(t, filepath.Join("testdata", "unreachable"), map[string]string{"stdout.txt": "client/stdout.txt"})
	o := Observe(dir, "lab")
	if !strings.HasPrefix(o.ResultError, "Could not connect to local model provider at http://127.0.0.1:9/v1.") {
		t.Errorf("result error = %q", o.ResultError)
	}
	if o.Answer != "" {
		t.Errorf("answer = %q, want none", o.Answer)
	}
}

func TestParseEventsBadInput(t *testing.T) {
	in := `{"type":"session.mcp_server_status_changed","data":{"serverName":"lab","status":"pending"}}
not json
{"type":"session.mcp_server_status_changed","data":{"serverName":"lab","status":"failed"}}
{"type":"session.error","data":{"errorType":"session","message":"Turn error: 500"}}
{"type":"assistant.message","data":{"model":"m","content":""}}
{"type":"result","exitCode":1}
`
	ev, w := ParseEvents(strings.NewReader(in), "stdout.txt")
	if diff := cmp.Diff([]string{"failed", "Turn error: 500", "m", ""}, []string{ev.Servers["lab"], ev.Error, ev.Model, ev.Answer}); diff != "" {
		t.Errorf("ParseEvents mismatch (-want +got):\n%s", diff)
	}
	if len(w) != 1 || !strings.HasPrefix(w[0], "stdout.txt:2: ") {
		t.Errorf("warnings = %q, want one for line 2", w)
	}
	ev, _ = ParseEvents(strings.NewReader(`{"type":"result","exitCode":3}`), "stdout.txt")
	if ev.Error != "exit code 3" {
		t.Errorf("error = %q, want the exit code", ev.Error)
	}
}

func TestObserveMissingEvidence(t *testing.T) {
	o := Observe(t.TempDir(), "lab")
	if len(o.Warnings) != 1 || !strings.Contains(o.Warnings[0], evidence.StdoutFile) {
		t.Errorf("warnings = %q, want one naming %s", o.Warnings, evidence.StdoutFile)
	}
}

func FuzzParseEvents(f *testing.F) {
	testutil.Seed(f, filepath.Join("testdata", "en-1000-all", "stdout.txt"))
	f.Fuzz(func(t *testing.T, data []byte) {
		_, w := ParseEvents(strings.NewReader(string(data)), "stdout.txt")
		testutil.InFile(t, "stdout.txt", w)
	})
}

func FuzzLogProblems(f *testing.F) {
	testutil.Seed(f, filepath.Join("testdata", "en-1000-all", "process.log"))
	f.Fuzz(func(t *testing.T, data []byte) {
		testutil.InFile(t, "process.log", logProblems(strings.NewReader(string(data)), "process.log"))
	})
}

func TestMCPConfigTwoServers(t *testing.T) {
	b, err := MCPConfig(testutil.TwoServers())
	if err != nil {
		t.Fatal(err)
	}
	testutil.ServersInOrder(t, string(b))
	b, err = MCPConfig(append(testutil.TwoServers(), client.Server{Name: "web", URL: "http://127.0.0.1:1/mcp"}))
	if err != nil {
		t.Fatal(err)
	}
	if want := `"web": {
      "type": "http",
      "url": "http://127.0.0.1:1/mcp",
      "tools": [
        "*"
      ]
    }`; !strings.Contains(string(b), want) {
		t.Errorf("an HTTP server among stdio ones: config\n%s\nwant its entry\n%s", b, want)
	}
}

// TestLogProblems: of 1.0.11's log (testdata/en-1000-1.0.11) no line is a
// problem, while a failure it would log the same way still is.
func TestLogProblems(t *testing.T) {
	in := `2026-12-02T15:42:15.378Z [ERROR] Connecting MCP client for lab...
2026-12-02T15:42:15.510Z [ERROR] MCP client for lab connected, took 132ms
2026-12-02T15:42:15.511Z [ERROR] MCP server lab provided deferred instructions: BEGIN codeword: X.
2026-12-02T15:42:15.600Z [ERROR] MCP client for lab failed to connect: spawn ENOENT
2026-12-02T15:42:15.700Z [WARNING] Starting MCP client for lab took long
`
	got := logProblems(strings.NewReader(in), "p.log")
	want := []string{"p.log:4: 2026-12-02T15:42:15.600Z [ERROR] MCP client for lab failed to connect: spawn ENOENT",
		"p.log:5: 2026-12-02T15:42:15.700Z [WARNING] Starting MCP client for lab took long"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("logProblems mismatch (-want +got):\n%s", diff)
	}
}
