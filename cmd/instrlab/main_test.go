package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

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
