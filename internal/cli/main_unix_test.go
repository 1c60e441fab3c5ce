//go:build unix

package cli

import (
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

func TestMain(m *testing.M) {
	if os.Getenv(stuckEnv) != "" {
		Main("stuck", func(ctx context.Context, args []string, stdout, stderr io.Writer) error {
			select {}
		})
	}
	if os.Getenv(waitEnv) != "" {
		Main("waiting", func(ctx context.Context, args []string, stdout, stderr io.Writer) error {
			<-ctx.Done()
			return fmt.Errorf("serving: %w", ctx.Err())
		})
	}
	os.Exit(m.Run())
}

// TestSignalEndsQuietly: a command that a SIGTERM cancels ends by the
// signal and writes nothing: its stderr may be its parent's (the lab's is
// the MCP client's), where "context canceled" would read as the parent's
// last word.
func TestSignalEndsQuietly(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run=^$")
	cmd.Env = append(os.Environ(), waitEnv+"=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(500 * time.Millisecond)
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
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run=^$")
	cmd.Env = append(os.Environ(), stuckEnv+"=1")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	time.Sleep(500 * time.Millisecond)
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
