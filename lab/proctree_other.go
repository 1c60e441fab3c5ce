//go:build !unix

package lab

import "os/exec"

func setSession(*exec.Cmd) {}

// signal kills the server; what it started is not seen here.
func (t *ProcessTree) signal(bool, []treeMember) {
	if t.cmd.Process != nil {
		t.cmd.Process.Kill()
	}
}

func (t *ProcessTree) members() []treeMember { return nil }

func (t *ProcessTree) alive([]treeMember) []treeMember { return nil }
