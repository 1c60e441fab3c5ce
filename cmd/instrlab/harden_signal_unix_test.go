//go:build unix

package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/instrlab/instrlab/internal/evidence"
)

// mkfifo makes a FIFO that nobody writes: opening it to read blocks.
func mkfifo(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Skip("no FIFO:", err)
	}
	return path
}

// startSignalled starts instrlab with args and sends it sigs, a second
// apart once it has had a second to start, and returns how it ended, or
// fails when it has not ended within 20 s of the last signal.
func startSignalled(t *testing.T, args []string, sigs ...syscall.Signal) (*os.ProcessState, string) {
	t.Helper()
	cmd := exec.Command(binary, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	for _, s := range sigs {
		select {
		case <-done:
			t.Fatalf("instrlab %s ended before %v: %v\n%s", strings.Join(args, " "), s, cmd.ProcessState, stderr.String())
		case <-time.After(time.Second):
		}
		cmd.Process.Signal(s)
	}
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		cmd.Process.Kill()
		<-done
		t.Fatalf("instrlab %s did not end after %v", strings.Join(args, " "), sigs)
	}
	return cmd.ProcessState, stderr.String()
}

// TestCheckConfigFIFO: check -config on a FIFO nobody writes ends at the
// first SIGINT, as it would on a file (on main the read blocked forever).
func TestCheckConfigFIFO(t *testing.T) {
	st, stderr := startSignalled(t, []string{"check", "-config", mkfifo(t)}, syscall.SIGINT)
	if ws := st.Sys().(syscall.WaitStatus); !ws.Signaled() || ws.Signal() != syscall.SIGINT {
		t.Errorf("ended with %v, want killed by SIGINT; stderr:\n%s", st, stderr)
	}
}

// TestCheckConfigEndless: check -config /dev/zero stops at the limit and
// says so, a usage error (on main it read 5 GB in 10 s).
func TestCheckConfigEndless(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero")
	}
	_, stderr, code := runCheckTest(t, "-config", "/dev/zero")
	if code != exitUsage || !strings.Contains(stderr, "longer than 67108864 bytes") {
		t.Errorf("exit %d, stderr %q; want %d naming the limit", code, stderr, exitUsage)
	}
}

// TestCheckProfileFIFO: check -profile on a FIFO nobody writes (named as
// a profile file is, .json) ends at the first SIGINT; before 2026-12-06
// the profile was read unbounded and uncancellable (os.ReadFile).
func TestCheckProfileFIFO(t *testing.T) {
	fifo := mkfifo(t)
	path := fifo + ".json"
	if err := os.Rename(fifo, path); err != nil {
		t.Fatal(err)
	}
	st, stderr := startSignalled(t, []string{"check", "-profile", path, "--", binary, "serve", "lab"}, syscall.SIGINT)
	if ws := st.Sys().(syscall.WaitStatus); !ws.Signaled() || ws.Signal() != syscall.SIGINT {
		t.Errorf("ended with %v, want killed by SIGINT; stderr:\n%s", st, stderr)
	}
}

// TestCheckProfileEndless: check -profile on an endless file stops at
// profiles.MaxFile and says so, a usage error.
func TestCheckProfileEndless(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero")
	}
	path := filepath.Join(t.TempDir(), "zero.json")
	if err := os.Symlink("/dev/zero", path); err != nil {
		t.Skip("no symlink:", err)
	}
	_, stderr, code := runCheckTest(t, "-profile", path, "--", binary, "serve", "lab")
	if code != exitUsage || !strings.Contains(stderr, "longer than 16777216 bytes") {
		t.Errorf("exit %d, stderr %q; want %d naming the limit", code, stderr, exitUsage)
	}
}

// TestReportRunFIFO: report of a directory whose run record is a FIFO
// nobody writes ends at once, saying the record is not a regular file
// (a warning, and the table's cells, not "empty");
// it used to block there until a second signal ended the process
// (internal/cli's TestSecondSignalEndsAStuckCommand holds that fallback).
func TestReportRunFIFO(t *testing.T) {
	dir := t.TempDir()
	run := filepath.Join(dir, "fake@1", "row", "1")
	if err := os.MkdirAll(run, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(run, evidence.RecordFile), 0o600); err != nil {
		t.Skip("no FIFO:", err)
	}
	cmd := exec.Command(binary, "report", dir)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		cmd.Process.Kill()
		t.Fatal("report of a run whose record is a FIFO did not end in 20 s")
	}
	if !strings.Contains(stderr.String(), "not a regular file") {
		t.Errorf("stderr does not say the record is not a regular file:\n%s", stderr.String())
	}
	if !strings.Contains(stdout.String(), "not read: run.json is not a regular file") || strings.Contains(stdout.String(), "run.json is empty") {
		t.Errorf("the table does not say the record is not a regular file:\n%s", stdout.String())
	}
}

// TestMatrixAndResultsReaders: every command that reads a file a user
// names (a matrix, a results.json) stops at its limit on an endless file,
// a usage error naming the limit, and ends at the first SIGTERM on a FIFO
// nobody writes. On main run, budget and sweep -matrix and diff read
// /dev/zero at about 1 GB per 10 s and a FIFO needed a second signal.
func TestMatrixAndResultsReaders(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero")
	}
	fifo := mkfifo(t)
	for _, tt := range []struct {
		args  []string // FILE is the file read
		limit string
	}{
		{[]string{"run", "-client", "claude-code", "-matrix", "FILE"}, "67108864"},
		{[]string{"budget", "-client", "claude-code@2.1.332", "-out", t.TempDir(), "-matrix", "FILE"}, "67108864"},
		{[]string{"sweep", "-client", "claude-code@2.1.332", "-out", t.TempDir(), "-matrix", "FILE"}, "67108864"},
		{[]string{"diff", "FILE", "/dev/null"}, "268435456"},
	} {
		name := tt.args[0]
		with := func(file string) []string {
			return slices.Collect(func(yield func(string) bool) {
				for _, a := range tt.args {
					if a == "FILE" {
						a = file
					}
					if !yield(a) {
						return
					}
				}
			})
		}
		t.Run(name+" endless", func(t *testing.T) {
			var stderr bytes.Buffer
			err := run(context.Background(), with("/dev/zero"), io.Discard, &stderr)
			if code := exitCode(err, &stderr); code != exitUsage || !strings.Contains(stderr.String(), "longer than "+tt.limit+" bytes") {
				t.Errorf("%s /dev/zero: exit %d, stderr %q; want %d naming the limit", name, code, stderr.String(), exitUsage)
			}
		})
		t.Run(name+" fifo", func(t *testing.T) {
			st, stderr := startSignalled(t, with(fifo), syscall.SIGTERM)
			if ws := st.Sys().(syscall.WaitStatus); !ws.Signaled() || ws.Signal() != syscall.SIGTERM {
				t.Errorf("%s FIFO: ended with %v, want killed by the first SIGTERM; stderr:\n%s", name, st, stderr)
			}
		})
	}
}
