package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// envRunner makes this test binary "instrlab" itself, with the fake client
// registered (run_test.go's init, which runs before this file's), running
// the JSON list of arguments it holds.
const envRunner = "INSTRLAB_TEST_RUNNER_ARGS"

func init() {
	if a := os.Getenv(envRunner); a != "" {
		var args []string
		if err := json.Unmarshal([]byte(a), &args); err != nil {
			panic(err)
		}
		os.Exit(exitCode(run(context.Background(), args, os.Stdout, os.Stderr), os.Stderr))
	}
}

// descendants lists the processes below pid, from /proc.
func descendants(pid int) []int {
	children := map[int][]int{}
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		p, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...: comm may hold spaces, so read after the last ')'.
		fields := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
		if len(fields) < 2 {
			continue
		}
		ppid, _ := strconv.Atoi(fields[1])
		children[ppid] = append(children[ppid], p)
	}
	var out []int
	var walk func(int)
	walk = func(p int) {
		for _, c := range children[p] {
			out = append(out, c)
			walk(c)
		}
	}
	walk(pid)
	return out
}

// alive reports whether pid is a process that has not exited (a zombie
// has exited).
func alive(pid int) bool {
	stat, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return false
	}
	fields := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
	return len(fields) > 0 && fields[0] != "Z"
}

// TestRunKilledLeavesNoProcesses: kill -9 of "instrlab run" in the middle
// of a run takes its client, the lab server the client started, and a
// command the client left running in its group (a Bash tool's sleep, which
// outlived the client before the runner's reaper) with it, with the client
// in a network jail (as root) or not.
func TestRunKilledLeavesNoProcesses(t *testing.T) {
	for _, netns := range []string{"off", "auto"} {
		t.Run("netns="+netns, func(t *testing.T) { runAndKill(t, netns) })
	}
}

func runAndKill(t *testing.T, netns string) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	m := `{"name":"kill","repeats":1,"prompt":"p","rows":[{"name":"hang","label":"hang","instr":"ascii:1000","env":{"FAKE_MODE":"hang","FAKE_CHILD":"sleep 60"}}]}`
	mpath := filepath.Join(dir, "matrix.json")
	if err := os.WriteFile(mpath, []byte(m), 0o644); err != nil {
		t.Fatal(err)
	}
	args, _ := json.Marshal([]string{"run", "-client", "fake@1", "-matrix", mpath, "-lab", binary, "-out", filepath.Join(dir, "out"), "-timeout", "10m", "-netns", netns})
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), envRunner+"="+string(args))
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} // so the test can clean up whatever survives
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	// Wait until the client, its lab server and its sleep run (the fake
	// client starts the lab, then the sleep, then hangs).
	var below []int
	sleeping := func() bool {
		for _, p := range below {
			if b, _ := os.ReadFile(filepath.Join("/proc", strconv.Itoa(p), "cmdline")); string(b) == "sleep\x0060\x00" {
				return true
			}
		}
		return false
	}
	for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if below = descendants(cmd.Process.Pid); len(below) >= 3 && sleeping() {
			break
		}
	}
	if len(below) < 3 || !sleeping() {
		t.Fatalf("the run started %d processes, want the client, its lab server and its sleep", len(below))
	}
	time.Sleep(200 * time.Millisecond) // let the lab's own start finish, so its pid is in the list
	below = descendants(cmd.Process.Pid)
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	var survivors []int
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		survivors = survivors[:0]
		for _, p := range below {
			if alive(p) {
				survivors = append(survivors, p)
			}
		}
		if len(survivors) == 0 {
			return
		}
	}
	for _, p := range survivors {
		cmdline, _ := os.ReadFile(filepath.Join("/proc", strconv.Itoa(p), "cmdline"))
		t.Errorf("process %d survived the runner's kill -9: %q", p, strings.ReplaceAll(string(cmdline), "\x00", " "))
		syscall.Kill(p, syscall.SIGKILL)
	}
}
