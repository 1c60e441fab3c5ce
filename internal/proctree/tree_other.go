//go:build !unix

package proctree

import "os/exec"

func setSession(*exec.Cmd) {}

// signal kills the server; what it started is not seen here.
func (t *Tree) signal(bool) {
	if t.cmd.Process != nil {
		t.cmd.Process.Kill()
	}
}

func (t *Tree) members() []member { return nil }
