//go:build unix && !linux

package lab

import (
	"os/exec"
	"syscall"
)

func setSession(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
}

// signal signals the server's process group; a process that left it is
// not seen here.
func (t *ProcessTree) signal(kill bool, _ []treeMember) {
	if t.cmd.Process == nil {
		return
	}
	sig := syscall.SIGTERM
	if kill {
		sig = syscall.SIGKILL
	}
	syscall.Kill(-t.cmd.Process.Pid, sig)
}

// members cannot list the tree here: it reports the group's leader while
// the group can be signalled.
func (t *ProcessTree) members() []treeMember {
	if t.cmd.Process == nil || syscall.Kill(-t.cmd.Process.Pid, 0) != nil {
		return nil
	}
	return []treeMember{{pid: t.cmd.Process.Pid, name: "process group"}}
}

// alive is the group, while it can be signalled.
func (t *ProcessTree) alive([]treeMember) []treeMember { return t.members() }
