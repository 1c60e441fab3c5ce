//go:build unix

package main

import (
	"bufio"
	"io"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestServeDiesBySignal: serve lab stopped by SIGTERM or SIGINT ends by that
// signal, so that the proxy in front of it (and any client) sees a server
// stopped from outside, not one that failed with exit status 1, as it did
// when opencode stopped its servers at the end of a session.
func TestServeDiesBySignal(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT} {
		t.Run(sig.String(), func(t *testing.T) {
			cmd := exec.Command(binary, "serve", "lab")
			stdin, err := cmd.StdinPipe()
			if err != nil {
				t.Fatal(err)
			}
			stdout, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			var stderr strings.Builder
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			defer stdin.Close()
			// One answered request: the server is serving when the
			// signal comes.
			io.WriteString(stdin, `{"jsonrpc":"2.0","id":1,"method":"ping"}`+"\n")
			if _, err := bufio.NewReader(stdout).ReadString('\n'); err != nil {
				t.Fatalf("no reply to ping: %v (stderr: %s)", err, stderr.String())
			}
			if err := cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			select {
			case <-done:
			case <-time.After(20 * time.Second):
				cmd.Process.Kill()
				t.Fatal("serve lab did not end within 20 s of the signal")
			}
			ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus)
			if !ok || !ws.Signaled() || ws.Signal() != sig {
				t.Errorf("serve lab ended with %v, want killed by %v (stderr: %s)", cmd.ProcessState, sig, stderr.String())
			}
		})
	}
}
