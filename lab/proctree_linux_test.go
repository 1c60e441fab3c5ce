package lab

import (
	"bufio"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestEndSetsidDaemon: a server that starts a child and a daemon in a new
// session (setsid, as a server's "start a background worker" does) has all
// three ended by End, which names no survivor. (On main, which ended the
// process group, the daemon in its own session survived.)
func TestEndSetsidDaemon(t *testing.T) {
	if _, err := exec.LookPath("setsid"); err != nil {
		t.Skip("no setsid")
	}
	script := `sleep 300 & echo $!; setsid sh -c 'sleep 301 & echo $!; wait' & sleep 302`
	cmd := exec.Command("sh", "-c", script)
	tree := PrepareTree(cmd)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(out)
	var pids []int
	for len(pids) < 2 && sc.Scan() {
		pid, err := strconv.Atoi(strings.TrimSpace(sc.Text()))
		if err != nil {
			t.Fatal(err)
		}
		pids = append(pids, pid)
	}
	pids = append(pids, cmd.Process.Pid)
	defer func() {
		for _, p := range pids {
			syscall.Kill(p, syscall.SIGKILL)
		}
	}()
	if n := len(tree.Survivors()); n < 4 { // sh, sleep 300, the setsid sh, sleep 301 (and 302)
		t.Fatalf("the tree lists %d processes, want at least 4: %q", n, tree.Survivors())
	}
	go cmd.Wait()
	if left := tree.End(2 * time.Second); left != nil {
		t.Errorf("survivors named: %q", left)
	}
	time.Sleep(100 * time.Millisecond)
	for _, p := range pids {
		if alive(p) {
			t.Errorf("pid %d survived End", p)
		}
	}
}

// alive reports a live process (not a zombie).
func alive(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	c := exec.Command("ps", "-o", "stat=", "-p", strconv.Itoa(pid))
	b, err := c.Output()
	return err == nil && !strings.HasPrefix(strings.TrimSpace(string(b)), "Z")
}
