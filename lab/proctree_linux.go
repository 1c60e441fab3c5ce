package lab

import (
	"bytes"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
)

func setSession(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Pdeathsig: syscall.SIGKILL}
}

func (t *ProcessTree) signal(kill bool) {
	if t.cmd.Process == nil {
		return
	}
	sig := syscall.SIGTERM
	if kill {
		sig = syscall.SIGKILL
	}
	syscall.Kill(-t.cmd.Process.Pid, sig)
	for _, m := range t.members() {
		syscall.Kill(m.pid, sig)
	}
}

// members lists, from /proc, the live processes (not zombies) of the
// server's session or process group, or carrying its marker.
func (t *ProcessTree) members() []treeMember {
	if t.cmd.Process == nil {
		return nil
	}
	leader := strconv.Itoa(t.cmd.Process.Pid)
	marker := []byte(t.marker)
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	self := os.Getpid()
	var out []treeMember
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == self {
			continue
		}
		stat, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// pid (comm) state ppid pgrp session ...; comm may hold ") ".
		open, close := bytes.IndexByte(stat, '('), bytes.LastIndexByte(stat, ')')
		if open < 0 || close < open {
			continue
		}
		f := strings.Fields(string(stat[close+1:]))
		if len(f) < 4 || f[0] == "Z" || f[0] == "X" {
			continue
		}
		in := f[2] == leader || f[3] == leader
		if !in {
			env, err := os.ReadFile("/proc/" + e.Name() + "/environ")
			in = err == nil && hasVar(env, marker)
		}
		if in {
			out = append(out, treeMember{pid: pid, name: string(stat[open+1 : close])})
		}
	}
	return out
}

// hasVar reports whether env, a NUL-separated environment, holds v.
func hasVar(env, v []byte) bool {
	for len(env) > 0 {
		i := bytes.IndexByte(env, 0)
		if i < 0 {
			i = len(env)
		}
		if bytes.Equal(env[:i], v) {
			return true
		}
		env = env[min(i+1, len(env)):]
	}
	return false
}
