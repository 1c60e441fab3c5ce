package main

import (
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/instrlab/instrlab/internal/cli"
	"github.com/instrlab/instrlab/internal/profiles/assess/annotate"
)

// exitNoConnect is check's exit status for a server it could not reach.
const exitNoConnect = annotate.ExitUnreachable

// exitCode maps an error run returned to the exit code, printing it to
// stderr, as main does.
func exitCode(err error, stderr io.Writer) int { return cli.ExitCode("instrlab", err, stderr) }

// binary is the instrlab binary built once for the tests that run it as a
// real process, the way clients do.
var binary string

func TestMain(m *testing.M) {
	// Text is wrapped to $COLUMNS when set: the tests' outputs are at the
	// width of no terminal, 80, wherever they run.
	os.Unsetenv("COLUMNS")
	dir, err := os.MkdirTemp("", "instrlab-test-")
	if err != nil {
		panic(err)
	}
	binary = filepath.Join(dir, "instrlab")
	out, err := exec.Command("go", "build", "-o", binary, ".").CombinedOutput()
	if err != nil {
		os.Stderr.Write(out)
		panic(err)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// TestUsageFiles: every command answers -h with its usage, and help lists
// every command.
func TestUsageFiles(t *testing.T) {
	var list strings.Builder
	if err := run(context.Background(), []string{"help"}, &list, io.Discard); err != nil {
		t.Fatal(err)
	}
	for _, c := range program.Commands {
		if !strings.Contains(list.String(), "\t"+c.Name+" ") {
			t.Errorf("help does not list %s", c.Name)
		}
		if c.Name == "jail" || c.Name == "serve" {
			continue // jail is not for people; serve's usage is internal/serve's
		}
		var stdout, stderr strings.Builder
		err := run(context.Background(), []string{"help", c.Name}, &stdout, &stderr)
		if err != nil || !strings.HasPrefix(stdout.String()+stderr.String(), "Usage") {
			t.Errorf("help %s: %v, output %q", c.Name, err, stdout.String()+stderr.String())
		}
	}
}
