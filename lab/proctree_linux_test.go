package lab

import (
	"bufio"
	"bytes"
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

// TestEndIgnoringTerm: a tree that ignores SIGTERM is killed after the
// grace, within End's bound, and no survivor is named.
func TestEndIgnoringTerm(t *testing.T) {
	cmd := exec.Command("sh", "-c", `trap '' TERM; sleep 300 & echo $!; wait`)
	tree := PrepareTree(cmd)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go cmd.Wait()
	sc := bufio.NewScanner(out)
	if !sc.Scan() {
		t.Fatal("no pid")
	}
	child, _ := strconv.Atoi(sc.Text())
	defer syscall.Kill(child, syscall.SIGKILL)
	start := time.Now()
	if left := tree.End(100 * time.Millisecond); left != nil {
		t.Errorf("survivors named: %q", left)
	}
	if took := time.Since(start); took < 100*time.Millisecond || took > 1100*time.Millisecond {
		t.Errorf("End took %v, want the grace and a kill", took)
	}
	for _, p := range []int{cmd.Process.Pid, child} {
		if alive(p) {
			t.Errorf("pid %d survived End", p)
		}
	}
}

// TestEndStartedMeanwhile: a daemon a server starts in a session of its
// own as it handles SIGTERM is found by the second listing and ended.
func TestEndStartedMeanwhile(t *testing.T) {
	if _, err := exec.LookPath("setsid"); err != nil {
		t.Skip("no setsid")
	}
	script := `trap 'setsid sleep 303 </dev/null >/dev/null 2>&1 & echo $! >&2; exit 0' TERM; echo ready; sleep 300 & wait`
	cmd := exec.Command("sh", "-c", script)
	tree := PrepareTree(cmd)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var daemon bytes.Buffer
	cmd.Stderr = &daemon
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	bufio.NewScanner(out).Scan()
	if left := tree.End(2 * time.Second); left != nil {
		t.Errorf("survivors named: %q", left)
	}
	cmd.Wait()
	// The shell's child may run the trap too, as it forks (a signal
	// caught before it resets its traps): a daemon each.
	lines := strings.Fields(daemon.String())
	if len(lines) == 0 {
		t.Fatal("no daemon pid")
	}
	for _, l := range lines {
		pid, err := strconv.Atoi(l)
		if err != nil {
			t.Fatalf("no daemon pid: %q", daemon.String())
		}
		defer syscall.Kill(pid, syscall.SIGKILL)
		if alive(pid) {
			t.Errorf("the daemon started on SIGTERM (pid %d) survived End", pid)
		}
	}
}

// TestEndGone: a tree of which nothing is left is ended at once.
func TestEndGone(t *testing.T) {
	cmd := exec.Command("true")
	tree := PrepareTree(cmd)
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	if left := tree.End(time.Second); left != nil {
		t.Errorf("survivors named: %q", left)
	}
}

func TestParseStat(t *testing.T) {
	for _, tt := range []struct {
		stat string
		want procStat
		ok   bool
	}{
		{"42 (node) S 1 42 42 0 -1 4194560 1 2 3 4 5 6 7 8 20 0 1 0 1234 5 6\n", procStat{name: "node", pgrp: []byte("42"), session: []byte("42"), start: 1234}, true},
		{"42 (a) b (c) R 1 7 8 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 99", procStat{name: "a) b (c", pgrp: []byte("7"), session: []byte("8"), start: 99}, true},
		{"42 (node) Z 1 42 42 0 -1 4194560 1 2 3 4 5 6 7 8 20 0 1 0 1234 5 6\n", procStat{}, false},
		{"7 (kworker/0:1) I 2 0 0 0 -1 69238880 0 0 0 0 0 0 0 0 20 0 1 0 88 0 0", procStat{name: "kworker/0:1", pgrp: []byte("0"), session: []byte("0"), start: 88, kernel: true}, true},
		{"42 (node) S 1 42 42", procStat{}, false},
		{"garbage", procStat{}, false},
	} {
		got, ok := parseStat([]byte(tt.stat))
		if ok != tt.ok || got.name != tt.want.name || !bytes.Equal(got.pgrp, tt.want.pgrp) || !bytes.Equal(got.session, tt.want.session) || got.start != tt.want.start || got.kernel != tt.want.kernel {
			t.Errorf("parseStat(%q) = %+v, %v; want %+v, %v", tt.stat, got, ok, tt.want, tt.ok)
		}
	}
}
