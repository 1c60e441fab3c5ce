package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/instrlab/instrlab/internal/testutil"
)

// TestCheckEndsSetsidDaemons: a server that starts a daemon in a session
// of its own (setsid) has it ended when check is done with the server. On
// main, which ended the server's process group, the daemon survived.
func TestCheckEndsSetsidDaemons(t *testing.T) {
	if _, err := exec.LookPath("setsid"); err != nil {
		t.Skip("no setsid")
	}
	pidFile := filepath.Join(t.TempDir(), "pids")
	script := `setsid sleep 300 >/dev/null 2>&1 </dev/null & echo $! >> "$0"; exec "$1" serve lab -eras legacy,modern`
	runCheckTest(t, "--", "sh", "-c", script, pidFile, binary)
	data, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range strings.Fields(string(data)) {
		pid, _ := strconv.Atoi(f)
		if pid > 0 && syscall.Kill(pid, 0) == nil {
			if b, _ := exec.Command("ps", "-o", "stat=", "-p", f).Output(); !strings.HasPrefix(strings.TrimSpace(string(b)), "Z") {
				syscall.Kill(pid, syscall.SIGKILL)
				t.Errorf("the daemon (pid %d) survived check", pid)
			}
		}
	}
}

// TestProxySecondSignalEndsTree: a client that stops its server (here the
// stdio proxy) with SIGINT and then SIGTERM 100 ms later has the server's
// whole tree ended, a daemon it started with setsid included, before the
// proxy dies, even when the server ignores SIGTERM and its input's end
// (which the first signal would give 4 s to end). On main the second
// signal ended the proxy at once and the daemon kept running after run
// -server.
func TestProxySecondSignalEndsTree(t *testing.T) {
	if _, err := exec.LookPath("setsid"); err != nil {
		t.Skip("no setsid")
	}
	pidFile := filepath.Join(t.TempDir(), "pids")
	script := `trap '' TERM INT; setsid sleep 300 >/dev/null 2>&1 </dev/null & echo $! >> "$0"; "$1" serve lab -eras legacy,modern; exec sleep 300`
	p := testutil.StartStdio(t, exec.Command(binary, "serve", "proxy", "--", "sh", "-c", script, pidFile, binary))
	defer p.Stdin.Close()
	p.Exchange(t, `{"jsonrpc":"2.0","id":1,"method":"ping"}`) // the server serves: its daemon is started
	data, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(data)))
	if pid <= 0 {
		t.Fatalf("no daemon pid in %q", data)
	}
	defer syscall.Kill(pid, syscall.SIGKILL)
	p.Cmd.Process.Signal(syscall.SIGINT)
	time.Sleep(100 * time.Millisecond)
	p.Cmd.Process.Signal(syscall.SIGTERM)
	p.Wait(t, 10*time.Second)
	for deadline := time.Now().Add(3 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		b, _ := exec.Command("ps", "-o", "stat=", "-p", strconv.Itoa(pid)).Output()
		if st := strings.TrimSpace(string(b)); st == "" || strings.HasPrefix(st, "Z") {
			return // gone
		}
		if time.Now().After(deadline) {
			t.Fatalf("the daemon (pid %d) survived the proxy's SIGINT and SIGTERM", pid)
		}
	}
}
