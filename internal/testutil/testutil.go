// Package testutil holds what the tests of several packages share: golden
// files refreshed by each package's -update flag, run dirs made from
// trimmed evidence of real runs, the seeds and the "file:line: message"
// check of the parsers' fuzz tests, and the check that a reader of user
// data is bounded and cancellable (ReadsBounded). Only tests import it.
package testutil

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Golden compares got with the golden file at path. With update set, it
// first writes got there.
func Golden(t testing.TB, path string, got []byte, update bool) {
	t.Helper()
	if update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update)", err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("%s mismatch (-want +got):\n%s", path, diff)
	}
}

// RunDir makes a fresh run dir holding the evidence files of the fixture
// folder src: files maps a file name under src to its path in the run dir,
// as in "stdout.txt" to "client/stdout.txt".
func RunDir(t testing.TB, src string, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for from, to := range files {
		b, err := os.ReadFile(filepath.Join(src, from))
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, filepath.FromSlash(to))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// Seed adds the contents of each file at paths to f's seed corpus.
func Seed(f *testing.F, paths ...string) {
	f.Helper()
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
}

// InFile fails t unless every report begins with "name:", as the
// "file:line: message" of a parser reading the file name does.
func InFile(t testing.TB, name string, reports []string) {
	t.Helper()
	for _, x := range reports {
		if !strings.HasPrefix(x, name+":") {
			t.Fatalf("report without file:line: %q", x)
		}
	}
}

// FakeHelp writes an executable named name that appends its arguments to
// dir/calls and prints help, standing in for a client asked for its help
// text; it skips the test on Windows (it is a shell script).
func FakeHelp(t testing.TB, name, help string) (bin, dir string) {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("a shell script stands in for " + name)
	}
	dir = t.TempDir()
	bin = filepath.Join(dir, name)
	script := "#!/bin/sh\necho \"$@\" >> " + filepath.Join(dir, "calls") + "\necho '" + help + "'\n"
	if err := os.WriteFile(bin, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return bin, dir
}
