package qwen

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/instrlab/instrlab/internal/client"
	"github.com/instrlab/instrlab/internal/testutil"
)

func TestSettings(t *testing.T) {
	got, err := Settings([]client.Server{{Name: "lab", Command: "/bin/instrlab", Args: []string{"serve", "lab"}}}, client.Arm{})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"selectedType": "openai"`, `"trust": true`, `"command": "/bin/instrlab"`, `"usageStatisticsEnabled": false`} {
		if !strings.Contains(string(got), want) {
			t.Errorf("settings lack %s:\n%s", want, got)
		}
	}
}

// TestObserveRealRun reads trimmed evidence of a real run (testdata/ROW,
// made by testdata/trim.sh from "instrlab run -client qwen@0.24.4").
func TestObserveRealRun(t *testing.T) {
	dir := testutil.RunDir(t, filepath.Join("testdata", "en-1000"),
		map[string]string{"stdout.txt": "client/stdout.txt", "debug.txt": "home/.qwen/debug/session.txt"})
	o := Observe(dir, "lab")
	got := []string{o.ServerStatus, o.Answer, o.Model, o.ResultError}
	if diff := cmp.Diff([]string{"connected", "BEGIN=PINTAIL-8601 END=PINTAIL-3421 LAST=798", "fake-model", ""}, got); diff != "" {
		t.Errorf("Observe mismatch (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"client/stdout.txt", "home/.qwen/debug/session.txt"}, o.Files); diff != "" {
		t.Errorf("files mismatch (-want +got):\n%s", diff)
	}
	if len(o.Warnings) > 0 {
		t.Errorf("warnings: %v", o.Warnings)
	}
}

func TestDebugProblems(t *testing.T) {
	in := "2026-11-30T01:52:53Z [ERROR] [MCP] lab: connection closed\n2026-11-30T01:52:53Z [WARN] [RIPGREP] unusable\n2026-11-30T01:52:53Z [DEBUG] [MCP_HOT_RELOAD] ok\n"
	got := DebugProblems(strings.NewReader(in), "debug.txt")
	if diff := cmp.Diff([]string{"debug.txt:1: 2026-11-30T01:52:53Z [ERROR] [MCP] lab: connection closed"}, got); diff != "" {
		t.Errorf("DebugProblems mismatch (-want +got):\n%s", diff)
	}
}

func FuzzDebugProblems(f *testing.F) {
	testutil.Seed(f, filepath.Join("testdata", "en-1000", "debug.txt"))
	f.Fuzz(func(t *testing.T, data []byte) {
		testutil.InFile(t, "debug.txt", DebugProblems(strings.NewReader(string(data)), "debug.txt"))
	})
}

// TestOlderVersionsAreRefusedBeforeInstalling: a version before the floor
// is refused by Supports (the sweep's check) and by Provision, which must
// not reach npm (there is none on PATH here).
func TestOlderVersionsAreRefusedBeforeInstalling(t *testing.T) {
	testutil.RefusedBelowFloor(t, New("0.1.4").(*Qwen), "0.1.4", "0.5.0",
		"qwen@0.1.4 cannot be driven: versions before 0.5.0 have no --output-format stream-json")
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
