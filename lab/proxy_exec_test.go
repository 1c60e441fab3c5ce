package lab

import (
	"bytes"
	"context"
	"io"
	"os/exec"
	"strings"
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
