//go:build unix

package cli

import (
	"context"
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

func TestMain(m *testing.M) {
	if os.Getenv(stuckEnv) != "" {
		Main("stuck", func(ctx context.Context, args []string, stdout, stderr io.Writer) error {
			select {}
		})
	}
	os.Exit(m.Run())
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
