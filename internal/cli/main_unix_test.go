//go:build unix

package cli

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"syscall"
	"testing"
	"time"
)

// stuckEnv makes the test binary a command that never returns, its
// context ignored (Main with a run stuck where cancellation does not
// reach), for TestSecondSignalEndsAStuckCommand.
const stuckEnv = "INSTRLAB_CLI_TEST_STUCK"

// waitEnv makes the test binary a command that returns its context's
// error once a signal cancels it, for TestSignalEndsQuietly.
const waitEnv = "INSTRLAB_CLI_TEST_WAIT"

// Each command says "ready" once Main runs it, its signals caught: the
// test signals it then, not after a guess at how long a start takes (a
// race-built binary on a loaded machine took over 500 ms).
func TestMain(m *testing.M) {
	if os.Getenv(stuckEnv) != "" {
		Main("stuck", func(ctx context.Context, args []string, stdout, stderr io.Writer) error {
			fmt.Fprintln(stdout, "ready")
			for {
				time.Sleep(time.Hour) // not select {}: a build without cgo calls that a deadlock
			}
		})
	}
	if os.Getenv(waitEnv) != "" {
		Main("waiting", func(ctx context.Context, args []string, stdout, stderr io.Writer) error {
			fmt.Fprintln(stdout, "ready")
			<-ctx.Done()
			return fmt.Errorf("serving: %w", ctx.Err())
		})
	}
	os.Exit(m.Run())
}

// startReady starts the test binary as the command env names and returns
// once it said it is ready, or fails the test after 10 s.
func startReady(t *testing.T, env string, stderr io.Writer) *exec.Cmd {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run=^$")
	cmd.Env = append(os.Environ(), env+"=1")
	cmd.Stderr = stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	ready := make(chan error, 1)
	go func() {
		line, err := bufio.NewReader(out).ReadString('\n')
		if err == nil && line != "ready\n" {
			err = fmt.Errorf("said %q", line)
		}
		ready <- err
		io.Copy(io.Discard, out)
	}()
	select {
	case err := <-ready:
		if err != nil {
			cmd.Process.Kill()
			t.Fatalf("the command did not start: %v", err)
		}
	case <-time.After(10 * time.Second):
		cmd.Process.Kill()
		t.Fatal("the command did not say it was ready within 10 s")
	}
	return cmd
}

// TestSignalEndsQuietly: a command that a SIGTERM cancels ends by the
// signal and writes nothing: its stderr may be its parent's (the lab's is
// the MCP client's), where "context canceled" would read as the parent's
// last word.
func TestSignalEndsQuietly(t *testing.T) {
	var stderr bytes.Buffer
	cmd := startReady(t, waitEnv, &stderr)
	cmd.Process.Signal(syscall.SIGTERM)
	cmd.Wait()
	if ws := cmd.ProcessState.Sys().(syscall.WaitStatus); !ws.Signaled() || ws.Signal() != syscall.SIGTERM {
		t.Errorf("ended with %v, want killed by SIGTERM", cmd.ProcessState)
	}
	if stderr.Len() > 0 {
		t.Errorf("stderr %q, want nothing", stderr.String())
	}
}

// TestSecondSignalEndsAStuckCommand: a command stuck where its context
// does not reach outlives the first SIGINT, and a second ends the process
// by SIGINT, UrgentGrace later. (A run's record that is a FIFO was such a
// place; evidence readers now refuse one.)
func TestSecondSignalEndsAStuckCommand(t *testing.T) {
	cmd := startReady(t, stuckEnv, nil)
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	cmd.Process.Signal(syscall.SIGINT)
	select {
	case <-done:
		t.Fatalf("a stuck command ended at the first signal: %v", cmd.ProcessState)
	case <-time.After(time.Second):
	}
	cmd.Process.Signal(syscall.SIGINT)
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		cmd.Process.Kill()
		t.Fatal("a stuck command outlived the second signal by 10 s")
	}
	if ws := cmd.ProcessState.Sys().(syscall.WaitStatus); !ws.Signaled() || ws.Signal() != syscall.SIGINT {
		t.Errorf("ended with %v, want killed by SIGINT", cmd.ProcessState)
	}
}
