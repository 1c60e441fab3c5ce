//go:build unix

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/instrlab/instrlab/internal/testutil"
)

// TestServeDiesBySignal: persona serve stopped by SIGTERM or SIGINT ends
// by that signal, as instrlab's servers do (internal/cli), so that a client
// stopping its servers sees them terminated and not exiting 0 as if their
// input had ended.
func TestServeDiesBySignal(t *testing.T) {
	bin := buildPersona(t)
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT} {
		t.Run(sig.String(), func(t *testing.T) {
			cmd := exec.Command(bin, "serve")
			cmd.Env = append(os.Environ(), "PERSONA_DB="+filepath.Join(t.TempDir(), "app.db"))
			p := testutil.StartStdio(t, cmd)
			defer p.Stdin.Close()
			// One answered request: the server is serving when the
			// signal comes.
			p.Exchange(t, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
			if err := p.Cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			p.Wait(t, 20*time.Second)
			ws, ok := p.Cmd.ProcessState.Sys().(syscall.WaitStatus)
			if !ok || !ws.Signaled() || ws.Signal() != sig {
				t.Errorf("persona serve ended with %v, want killed by %v (stderr: %s)", p.Cmd.ProcessState, sig, p.Stderr.String())
			}
		})
	}
}
