package analyze

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/instrlab/instrlab/internal/client/clients"
	"github.com/instrlab/instrlab/internal/evidence"
	"github.com/instrlab/instrlab/internal/testutil"
	"github.com/instrlab/instrlab/internal/unit"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// fixtureRuns are trimmed evidence dirs of real runs (testdata/trimrun.py):
// of the lab (runs/, which derive and report read as well; frameworkruns/,
// the agent frameworks' hosts) and of third-party servers (serverruns/,
// run -server).
func fixtureRuns(t *testing.T) []string {
	t.Helper()
	var dirs []string
	for _, under := range []string{"runs", "frameworkruns", "serverruns"} {
		d, err := filepath.Glob(filepath.Join("testdata", under, "*", "*", "1"))
		if err != nil || len(d) == 0 {
			t.Fatalf("no fixture runs in testdata/%s: %v", under, err)
		}
		dirs = append(dirs, d...)
	}
	return dirs
}

func TestAnalyzeGolden(t *testing.T) {
	for _, dir := range fixtureRuns(t) {
		t.Run(dir, func(t *testing.T) {
			res, err := Run(dir, clients.New)
			if err != nil {
				t.Fatal(err)
			}
			res.Dir = ""
			got, err := json.MarshalIndent(res, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			testutil.Golden(t, filepath.Join(dir, "result.golden.json"), append(got, '\n'), *update)
		})
	}
}

// TestAnalyzeFacts pins what the real runs showed, so that a golden refresh
// cannot lose a finding unnoticed.
func TestAnalyzeFacts(t *testing.T) {
	type facts struct {
		Placement   string
		Kept        int
		Full        bool
		Suffix      string
		Era         string
		Methods     string
		InitSent    bool
		Status      string
		Reader      string
		LaterKind   string
		Truncations int
	}
	tests := []struct {
		dir  string
		want facts
	}{
		{"runs/claude-code@2.1.328/en-5000", facts{"system-message", 4096, false, "… [truncated]", "initialize",
			"server/discover initialize notifications/initialized tools/list", true, "connected", "BEGIN=WARBLER-6225 END=NONE LAST=4034", "", 1}},
		{"runs/claude-code@2.1.328/en-1000-dual", facts{"system-message", 1000, true, "", "discover",
			"server/discover tools/list", false, "connected", "BEGIN=PELICAN-2356 END=KESTREL-8766 LAST=798", "", 0}},
		{"runs/claude-code@2.1.285/en-1000-dual", facts{"system-message", 1000, true, "", "initialize",
			"initialize notifications/initialized tools/list", true, "connected", "BEGIN=PINTAIL-8601 END=PINTAIL-3421 LAST=798", "", 0}},
		{"runs/claude-code@2.1.328/en-1000-late", facts{"", 0, false, "", "",
			"server/discover initialize notifications/initialized tools/list", true, "pending", "BEGIN=PINTAIL-8601 END=PINTAIL-3421 LAST=798", "system-message", 0}},
		{"runs/claude-code@2.1.328/none", facts{"", 0, false, "", "",
			"server/discover initialize notifications/initialized tools/list", true, "connected", "BEGIN=NONE END=NONE LAST=NONE", "", 0}},
		// A framework (the Vercel AI SDK's host, OpenAI Responses): the
		// recipe passes no instructions; an app that passes them as
		// generateText's system puts them whole in a system message.
		{"frameworkruns/ai-sdk@7.0.185/en-1000", facts{"", 0, false, "", "",
			"server/discover initialize notifications/initialized tools/list", true, "connected", "BEGIN=NONE END=NONE LAST=NONE", "", 0}},
		{"frameworkruns/ai-sdk@7.0.185~instructions/en-1000", facts{"system-message", 1000, true, "", "initialize",
			"server/discover initialize notifications/initialized tools/list", true, "connected", "BEGIN=PINTAIL-8601 END=PINTAIL-3421 LAST=798", "", 0}},
		// Mastra's host with forwardInstructions (its arm): the text in a
		// system message of its own after the agent's, under a heading,
		// cut at the documented instructionsMaxLength of 512.
		{"frameworkruns/mastra@2.0.0~forward-instructions/en-1000", facts{"system-message", 512, false, "", "initialize",
			"server/discover initialize notifications/initialized tools/list", true, "connected", "BEGIN=PINTAIL-8601 END=NONE LAST=295", "", 0}},
		// mcp-use's host (its README's MCPAgent): it initializes, lists
		// the tools, and passes no server's instructions.
		{"frameworkruns/mcp-use@1.34.6/en-1000", facts{"", 0, false, "", "",
			"initialize notifications/initialized tools/list", true, "connected", "BEGIN=NONE END=NONE LAST=NONE", "", 0}},
	}
	for _, tt := range tests {
		t.Run(tt.dir, func(t *testing.T) {
			res, err := Run(filepath.Join("testdata", tt.dir, "1"), clients.New)
			if err != nil {
				t.Fatal(err)
			}
			got := facts{Methods: strings.Join(res.Handshake.Methods, " "), InitSent: res.Handshake.InitializeSent,
				Status: res.Observation.ServerStatus, Reader: res.Reader.Line(), Truncations: len(res.Observation.Truncations)}
			if b := res.First.Best(); b != nil {
				got.Placement, got.Kept, got.Full, got.Era = string(b.Kind), b.Kept, b.Full, string(b.Reply)
				if !b.Full {
					got.Suffix = unit.CodePoint.Prefix(b.Suffix, 13)
				}
			}
			if len(res.Requests) > 1 {
				if b := res.Requests[1].Best(); b != nil {
					got.LaterKind = string(b.Kind)
				}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("facts mismatch (-want +got):\n%s", diff)
			}
			if len(res.Warnings) > 0 {
				t.Errorf("warnings: %q", res.Warnings)
			}
		})
	}
}

func TestAnalyzeWarnsOnBadEvidence(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join("testdata", "runs", "claude-code@2.1.328", "en-5000", "1", evidence.RecordFile)
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, evidence.RecordFile), b, 0o644); err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(dir, evidence.APIDir), 0o755)
	os.WriteFile(filepath.Join(dir, evidence.APIDir, "requests.jsonl"), []byte("{broken\n"), 0o644)
	os.WriteFile(filepath.Join(dir, evidence.LabLogFile), []byte(`{"dir":"recv","method":"initialize","time":"2026-11-30T00:00:00Z"}`+"\nnope\n"), 0o644)
	res, err := Run(dir, clients.New)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"api/requests.jsonl:1: ", "no model request was recorded", "lab.jsonl:2: ", "client/stdout.txt: ", "client/debug.log: ", "home/.claude/projects: no transcript"}
	if len(res.Warnings) != len(want) {
		t.Fatalf("warnings %q", res.Warnings)
	}
	for i, w := range want {
		if !strings.Contains(res.Warnings[i], w) {
			t.Errorf("warning %d = %q, want it to contain %q", i, res.Warnings[i], w)
		}
	}
	if strings.Join(res.Handshake.Methods, ",") != "initialize" {
		t.Errorf("methods %q", res.Handshake.Methods)
	}
}
