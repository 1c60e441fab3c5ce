package runner

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// liveMembers lists the processes of group pgid that are alive (not
// zombies), from /proc.
func liveMembers(t *testing.T, pgid int) []int {
	t.Helper()
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	var out []int
	for _, p := range stats {
		b, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		// pid (comm) state ppid pgrp ...: comm may hold spaces, so after ')'.
		f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:]))
		if len(f) > 2 && f[0] != "Z" && f[2] == strconv.Itoa(pgid) {
			pid, _ := strconv.Atoi(filepath.Base(filepath.Dir(p)))
			out = append(out, pid)
		}
	}
	return out
}

// groupOfSleeps starts a shell in a group of its own (as a client is
// started) with two sleeps in its group, as a client's Bash tool leaves
// them, and returns its group.
func groupOfSleeps(t *testing.T) int {
	t.Helper()
	cmd := exec.Command("/bin/sh", "-c", "sleep 60 & sleep 60 & wait")
	ownGroup(cmd)
	cmd.SysProcAttr.Pdeathsig = 0 // the test's thread may end before the check
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pgid := cmd.Process.Pid
	go cmd.Wait()
	t.Cleanup(func() { killGroup(cmd) })
	deadline := time.Now().Add(5 * time.Second)
	for len(liveMembers(t, pgid)) < 3 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if n := len(liveMembers(t, pgid)); n < 3 {
		t.Fatalf("the group has %d live processes, want the shell and two sleeps", n)
	}
	return pgid
}

// TestReaperEndsGroupsTheRunnerLeft: when the runner's end of the pipe
// closes without the group taken back (the kernel closes it when the
// runner is killed with SIGKILL), every process of the group dies, the
// client's children included; a group taken back (done) is left alone.
func TestReaperEndsGroupsTheRunnerLeft(t *testing.T) {
	r := startReaper()
	if r == nil {
		t.Fatal("no reaper")
	}
	left, ended := groupOfSleeps(t), groupOfSleeps(t)
	r.add(left)
	r.add(ended)
	r.done(ended)
	r.in.Close() // as when the runner dies
	deadline := time.Now().Add(5 * time.Second)
	for len(liveMembers(t, left)) > 0 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if live := liveMembers(t, left); len(live) > 0 {
		t.Errorf("processes %v of the group left behind outlived the runner's end", live)
	}
	if n := len(liveMembers(t, ended)); n != 3 {
		t.Errorf("the group taken back has %d live processes, want its 3 left alone", n)
	}
	r.cmd.Wait()
}
