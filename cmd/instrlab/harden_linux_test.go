package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// TestCheckEndsSetsidDaemons: a server that starts a daemon in a session
// of its own (setsid) has it ended when check is done with the server. On
// main, which ended the server's process group, the daemon survived.
func TestCheckEndsSetsidDaemons(t *testing.T) {
	if _, err := exec.LookPath("setsid"); err != nil {
		t.Skip("no setsid")
	}
	pidFile := filepath.Join(t.TempDir(), "pids")
	script := `setsid sleep 300 >/dev/null 2>&1 </dev/null & echo $! >> "$0"; exec "$1" serve lab -era dual`
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
