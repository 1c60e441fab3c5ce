//go:build unix

package lab

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestServeCommandClientLeavesFirst: a client that closes its input makes
// the proxy close the server's, and a server that then ends at once (as
// any stdio server does at the end of its input) ended after the client
// left, not "while the client was connected", however late the proxy is
// after closing the server's input. That was a race between the server's
// exit and the proxy noting the client's leaving, lost now and then on a
// busy machine (TestRunHTTPServer under go test -race).
func TestServeCommandClientLeavesFirst(t *testing.T) {
	cat, err := exec.LookPath("cat")
	if err != nil {
		t.Skip("no cat to serve as a server that ends with its input")
	}
	// The proxy is slow after closing the server's input, as when it is
	// descheduled there: the server's end comes first.
	testHookInputClosed = func() { time.Sleep(50 * time.Millisecond) }
	defer func() { testHookInputClosed = func() {} }()
	for i := range 5 {
		var logBuf bytes.Buffer
		p := NewProxy(NewMessageLog(&logBuf))
		err := p.ServeCommand(context.Background(), exec.Command(cat), strings.NewReader(`{"jsonrpc":"2.0","method":"x"}`+"\n"), io.Discard, nil)
		if err != nil {
			t.Fatalf("run %d: %v\nlog:\n%s", i, err, logBuf.String())
		}
		if !strings.Contains(logBuf.String(), "after the client closed its input") {
			t.Fatalf("run %d: the log does not say the server ended after the client left:\n%s", i, logBuf.String())
		}
	}
}

// TestServeCommandServerLetsGo: the proxy ends, naming why, when the
// server closes its stdout but stays alive, and when it exits leaving a
// process that holds its stdout (in its group, or in a session of its own
// as setsid makes it); the processes left are ended. On main the proxy
// waited for the client forever in each case (under run, a client
// timeout).
func TestServeCommandServerLetsGo(t *testing.T) {
	if _, err := exec.LookPath("setsid"); err != nil {
		t.Skip("no setsid")
	}
	for _, tc := range []struct{ name, script, want string }{
		{"closes stdout", `exec 1>&-; echo $$ >&2; sleep 300`, "terminated after it closed its stdout"},
		{"child holds stdout", `sleep 300 & echo $! >&2; exit 0`, "held its stdout or stderr after it ended, and was ended"},
		{"setsid daemon holds stdout", `setsid sleep 300 & echo $! >&2; exit 0`, "held its stdout or stderr after it ended, and was ended"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var logBuf, stderr bytes.Buffer
			p := NewProxy(NewMessageLog(&logBuf))
			clientIn, clientOut := io.Pipe() // the client stays connected
			defer clientOut.Close()
			done := make(chan error, 1)
			go func() {
				done <- p.ServeCommand(context.Background(), exec.Command("sh", "-c", tc.script), clientIn, io.Discard, &stderr)
			}()
			select {
			case err := <-done:
				if !errors.Is(err, ErrServerExited) {
					t.Errorf("ServeCommand: %v, want ErrServerExited", err)
				}
			case <-time.After(60 * time.Second):
				t.Fatalf("the proxy did not end; log:\n%s", logBuf.String())
			}
			if !strings.Contains(logBuf.String(), tc.want) {
				t.Errorf("the log does not say %q:\n%s", tc.want, logBuf.String())
			}
			pid, err := strconv.Atoi(strings.TrimSpace(stderr.String()))
			if err != nil {
				t.Fatalf("no pid on stderr: %q", stderr.String())
			}
			if syscall.Kill(pid, 0) == nil {
				if b, _ := exec.Command("ps", "-o", "stat=", "-p", strconv.Itoa(pid)).Output(); !strings.HasPrefix(strings.TrimSpace(string(b)), "Z") {
					syscall.Kill(pid, syscall.SIGKILL)
					t.Errorf("pid %d (%s) survived the proxy", pid, tc.name)
				}
			}
		})
	}
}

// TestServeCommandLogFull: when the message log cannot be written (a full
// disk), the stdio proxy stops relaying and its server, and says why,
// while the client is still sending. On main it kept forwarding, its log
// silently losing most lines, and reported the failure only at its exit.
func TestServeCommandLogFull(t *testing.T) {
	cat, err := exec.LookPath("cat")
	if err != nil {
		t.Skip("no cat to serve as an echoing server")
	}
	disk := &fullDisk{room: 300}
	p := NewProxy(NewMessageLog(disk))
	in, w := io.Pipe()
	defer w.Close()
	go func() { // a client that never stops sending
		for i := 0; ; i++ {
			if _, err := fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%d,"method":"ping"}`+"\n", i); err != nil {
				return
			}
		}
	}()
	done := make(chan error, 1)
	go func() { done <- p.ServeCommand(context.Background(), exec.Command(cat), in, io.Discard, nil) }()
	select {
	case err := <-done:
		if err == nil || !errors.Is(err, syscall.ENOSPC) || !strings.Contains(err.Error(), "stopped relaying") {
			t.Errorf("ServeCommand = %v, want it stopped by the log's ENOSPC", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the proxy still relays 20 s after its log failed")
	}
}
