package gemini

import (
	"flag"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/instrlab/instrlab/internal/client"
	"github.com/instrlab/instrlab/internal/testutil"
)

var update = flag.Bool("update", false, "rewrite the golden files")

func TestSettings(t *testing.T) {
	got, err := Settings([]client.Server{{Name: "lab", Command: "/bin/instrlab", Args: []string{"serve", "lab", "-instr", "ascii:1000"},
		Env: map[string]string{"A": "1"}}}, client.Arm{})
	if err != nil {
		t.Fatal(err)
	}
	testutil.Golden(t, filepath.Join("testdata", "settings.golden.json"), got, *update)
}

// TestObserveRealRuns reads trimmed evidence of real runs (testdata/ROW,
// made by testdata/trim.sh from "instrlab run -client gemini@0.61.0").
func TestObserveRealRuns(t *testing.T) {
	tests := []struct {
		row, status, answer, model string
	}{
		{"en-1000", "connected", "BEGIN=PINTAIL-8601 END=PINTAIL-3421 LAST=798", "auto → gemini-3.5-flash-lite, gemini-3.8-flash"},
		{"en-1000-held20", "connected", "BEGIN=PINTAIL-8601 END=PINTAIL-3421 LAST=798", "auto → gemini-3.5-flash-lite, gemini-3.8-flash"},
	}
	for _, tt := range tests {
		t.Run(tt.row, func(t *testing.T) {
			dir := testutil.RunDir(t, filepath.Join("testdata", tt.row),
				map[string]string{"stdout.txt": "client/stdout.txt", "stderr.txt": "client/stderr.txt"})
			o := Observe(dir, "lab")
			got := []string{o.ServerStatus, o.Answer, o.Model, o.ResultError}
			if diff := cmp.Diff([]string{tt.status, tt.answer, tt.model, ""}, got); diff != "" {
				t.Errorf("Observe mismatch (-want +got):\n%s", diff)
			}
			if len(o.Warnings) > 0 {
				t.Errorf("warnings: %v", o.Warnings)
			}
		})
	}
}

func TestParseStream(t *testing.T) {
	in := strings.Join([]string{
		`{"type":"init","session_id":"s1","model":"auto"}`,
		`{"type":"message","role":"assistant","content":"I will ","delta":true}`,
		`{"type":"message","role":"assistant","content":"check.","delta":true}`,
		`{"type":"tool_use","tool_name":"run_shell_command"}`,
		`{"type":"tool_result","status":"success"}`,
		`oops`,
		`{"type":"message","role":"assistant","content":"BEGIN=","delta":true}`,
		`{"type":"message","role":"assistant","content":"NONE","delta":true}`,
		`{"type":"result","status":"error","error":{"message":"quota"},"stats":{"models":{"b":{},"a":{}}}}`,
	}, "\n")
	s, w := ParseStream(strings.NewReader(in), "stdout.txt")
	want := Stream{SessionID: "s1", Model: "auto", Answer: "BEGIN=NONE", Status: "error", Error: "quota", Models: []string{"a", "b"}, Events: 8}
	if diff := cmp.Diff(want, s); diff != "" {
		t.Errorf("ParseStream mismatch (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"stdout.txt:6: invalid character 'o' looking for beginning of value"}, w); diff != "" {
		t.Errorf("warnings mismatch (-want +got):\n%s", diff)
	}
}

func TestParseDebug(t *testing.T) {
	in := "Registering notification handlers for server 'lab'. Capabilities: { tools: {} }\n" +
		"Error connecting to MCP server 'other': spawn ENOENT\n" +
		"unrelated line\n"
	d, w := ParseDebug(strings.NewReader(in), "stderr.txt")
	want := Debug{Connected: map[string]string{"lab": "stderr.txt:1"},
		Failures: []string{"stderr.txt:2: Error connecting to MCP server 'other': spawn ENOENT"}, Lines: 3}
	if diff := cmp.Diff(want, d); diff != "" || len(w) > 0 {
		t.Errorf("ParseDebug mismatch (-want +got):\n%s\nwarnings %v", diff, w)
	}
}

func FuzzParseStream(f *testing.F) {
	testutil.Seed(f, filepath.Join("testdata", "en-1000", "stdout.txt"))
	f.Add([]byte(`{"type":"result","stats":{"models":null},"error":null}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		_, w := ParseStream(strings.NewReader(string(data)), "stdout.txt")
		testutil.InFile(t, "stdout.txt", w)
	})
}

func FuzzParseDebug(f *testing.F) {
	testutil.Seed(f, filepath.Join("testdata", "en-1000", "stderr.txt"))
	f.Fuzz(func(t *testing.T, data []byte) {
		d, w := ParseDebug(strings.NewReader(string(data)), "stderr.txt")
		testutil.InFile(t, "stderr.txt", append(w, d.Failures...))
	})
}

// TestOlderVersionsAreRefusedBeforeInstalling: a version before the floor
// is refused by Supports (the sweep's check) and by Provision, which must
// not reach npm (there is none on PATH here).
func TestOlderVersionsAreRefusedBeforeInstalling(t *testing.T) {
	testutil.RefusedBelowFloor(t, New("0.10.0").(*Gemini), "0.10.0", "0.11.3",
		"gemini@0.10.0 cannot be driven: versions before 0.11.3 have no --output-format stream-json")
}

func TestSettingsTwoServers(t *testing.T) {
	b, err := Settings(testutil.TwoServers(), client.Arm{})
	if err != nil {
		t.Fatal(err)
	}
	testutil.ServersInOrder(t, string(b))
	if _, err := Settings([]client.Server{{Command: "/bin/instrlab"}}, client.Arm{}); err == nil {
		t.Error("a server without a name: no error")
	}
}
