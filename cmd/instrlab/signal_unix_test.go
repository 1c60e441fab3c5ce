//go:build unix

package main

import (
	"os/exec"
	"syscall"
	"testing"
	"time"

	"github.com/instrlab/instrlab/internal/testutil"
)

// TestServeDiesBySignal: serve lab stopped by SIGTERM or SIGINT ends by that
// signal, so that the proxy in front of it (and any client) sees a server
// stopped from outside, not one that failed with exit status 1, as it did
// when opencode stopped its servers at the end of a session.
func TestServeDiesBySignal(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT} {
		t.Run(sig.String(), func(t *testing.T) {
			p := testutil.StartStdio(t, exec.Command(binary, "serve", "lab"))
			defer p.Stdin.Close()
			// One answered request: the server is serving when the
			// signal comes.
			p.Exchange(t, `{"jsonrpc":"2.0","id":1,"method":"ping"}`)
			if err := p.Cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			p.Wait(t, 20*time.Second)
			ws, ok := p.Cmd.ProcessState.Sys().(syscall.WaitStatus)
			if !ok || !ws.Signaled() || ws.Signal() != sig {
				t.Errorf("serve lab ended with %v, want killed by %v (stderr: %s)", p.Cmd.ProcessState, sig, p.Stderr.String())
			}
		})
	}
}
