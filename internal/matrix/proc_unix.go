//go:build unix

package matrix

import (
	"os/exec"
	"syscall"
)

// ownGroup starts cmd in a process group of its own, keeping what the
// client set (a jail's namespaces), so that killGroup also ends what it
// spawned. Process attributes only Linux has (a parent-death signal) go in
// a proc_linux.go beside this file.
func ownGroup(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
}

// killGroup kills cmd's process group.
func killGroup(cmd *exec.Cmd) error {
	return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
}
