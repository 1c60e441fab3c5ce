//go:build unix

package runner

import (
	"errors"
	"os/exec"
	"syscall"
)

// ownGroup starts cmd in a process group of its own, keeping what the
// client set (a jail's namespaces), so that killGroup also ends what it
// spawned, and, where the system has one, with a parent-death signal, so
// that the client dies with the runner even when the runner is killed
// (proc_linux.go).
func ownGroup(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
	dieWithParent(cmd.SysProcAttr)
}

// killGroup kills cmd's process group.
func killGroup(cmd *exec.Cmd) error {
	return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
}

// alive tells whether process pid exists (one of another user's counts).
func alive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
