package cline

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/instrlab/instrlab/internal/client"
)

// TestLineOf: every version npm serves of cline (npm view cline versions,
// 2026-12-02) falls in the line whose shipped files were read.
func TestLineOf(t *testing.T) {
	for v, want := range map[string]line{
		"0.8.2": notCLI,
		"1.0.6": goCLI, "1.0.8": goCLI, "1.0.9": goCLI, "1.0.10": goCLI,
		"2.14.0": nodeCLI, "2.18.0": nodeCLI,
		"3.0.57": bunCLI, "3.0.65": bunCLI, "4.0.0": bunCLI,
		"3.1.0-nightly.1": bunCLI, "latest": bunCLI,
	} {
		if got := lineOf(v); got != want {
			t.Errorf("lineOf(%q) = %d, want %d", v, got, want)
		}
	}
}

// TestSupports: 0.8.2 and 1.x are refused by Supports and by Provision
// before anything is installed, saying why (not a CLI; a 1.x run leaves
// processes behind); the sweep is told why 2.x cannot finish a run, but
// Provision does not refuse it; 3.x is supported.
func TestSupports(t *testing.T) {
	for v, want := range map[string][]string{
		"0.8.2": {"not the Cline CLI", "no executable"},
		"1.0.9": {"cline@1.0.9 is not run", "process groups of their own", "instance not found in registry", "left the core, the host bridge and the lab running"},
	} {
		c := &Cline{Base: Info.At(v)}
		for _, err := range []error{c.Supports(v), c.Provision(context.Background(), io.Discard)} {
			for _, w := range want {
				if err == nil || !strings.Contains(err.Error(), w) {
					t.Errorf("cline@%s: %v, want a refusal saying %q", v, err, w)
				}
			}
		}
	}
	c := &Cline{Base: Info.At("2.18.0")}
	for _, w := range []string{"cline@2.18.0 cannot finish a run", "attempt_completion", "Too many consecutive mistakes (3)"} {
		if err := c.Supports("2.18.0"); err == nil || !strings.Contains(err.Error(), w) {
			t.Errorf("Supports(2.18.0) = %v, want it to say %q", err, w)
		}
	}
	if err := refused("2.18.0"); err != nil {
		t.Errorf("Provision would refuse 2.18.0: %v", err)
	}
	if err := c.Supports("3.0.65"); err != nil {
		t.Errorf("Supports(3.0.65) = %v", err)
	}
}

// TestCommandPerLine: each line gets its own settings files and command
// line (read in its shipped code, run in docs/clients.md): 3.x providers.json
// and its executable with E2E_TEST; 2.x the core's state files and node on
// its script with CLINE_NO_AUTO_UPDATE (E2E_TEST makes 2.18.0 exit at
// start). Every line gets the MCP settings; 3.x's approval arms their
// flags.
func TestCommandPerLine(t *testing.T) {
	for _, tc := range []struct {
		version, bin, node string
		approval           string
		files              []string
		args               []string
		env, noEnv         string
	}{
		{"3.0.65", "/c/cline", "", "", []string{ProvidersFile, GlobalFile}, []string{"/c/cline", "--json", "--verbose", "P"}, "E2E_TEST=true", "CLINE_NO_AUTO_UPDATE"},
		// 3.x's approval modes: auto-approval off, and plan mode.
		{"3.0.65", "/c/cline", "", client.ApprovalDefault, []string{ProvidersFile, GlobalFile}, []string{"/c/cline", "--json", "--verbose", "--auto-approve", "false", "P"}, "E2E_TEST=true", "CLINE_NO_AUTO_UPDATE"},
		{"3.0.65", "/c/cline", "", client.ApprovalPlan, []string{ProvidersFile, GlobalFile}, []string{"/c/cline", "--json", "--verbose", "--plan", "P"}, "E2E_TEST=true", "CLINE_NO_AUTO_UPDATE"},
		{"2.18.0", "/c/cli.mjs", "/n/bin/node", "", []string{GlobalStateFile, SecretsFile}, []string{"/n/bin/node", "/c/cli.mjs", "--yolo", "--json", "P"}, "CLINE_NO_AUTO_UPDATE=1", "E2E_TEST"},
	} {
		dir := t.TempDir()
		r := &client.Run{Dir: dir, Home: filepath.Join(dir, "home"), Work: dir, APIURL: "http://127.0.0.1:1/", APIKey: "k", Prompt: "P",
			Servers: []client.Server{{Name: "lab", Command: "/bin/lab"}}, Arm: client.Arm{Approval: tc.approval}}
		if err := os.MkdirAll(r.ClientDir(), 0o755); err != nil {
			t.Fatal(err)
		}
		c := &Cline{Base: Info.At(tc.version), bin: tc.bin, node: tc.node}
		cmd, err := c.Command(context.Background(), r)
		if err != nil {
			t.Fatalf("%s: %v", tc.version, err)
		}
		if diff := cmp.Diff(tc.args, cmd.Args); diff != "" {
			t.Errorf("%s: args mismatch (-want +got):\n%s", tc.version, diff)
		}
		env := strings.Join(cmd.Env, "\n")
		if !strings.Contains(env, tc.env) || strings.Contains(env, tc.noEnv) {
			t.Errorf("%s: environment lacks %q or has %q:\n%s", tc.version, tc.env, tc.noEnv, env)
		}
		var written []string
		for _, f := range []string{ProvidersFile, GlobalFile, GlobalStateFile, SecretsFile} {
			if _, err := os.Stat(filepath.Join(r.ClientDir(), f)); err == nil {
				written = append(written, f)
			}
		}
		if diff := cmp.Diff(tc.files, written); diff != "" {
			t.Errorf("%s: settings files mismatch (-want +got):\n%s", tc.version, diff)
		}
		if _, err := os.Stat(filepath.Join(r.Home, ".cline", "data", "settings", MCPFile)); err != nil {
			t.Errorf("%s: no MCP settings: %v", tc.version, err)
		}
	}
}
