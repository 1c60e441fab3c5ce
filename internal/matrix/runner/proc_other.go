//go:build !unix

package runner

import "os/exec"

// ownGroup does nothing where there are no process groups (Windows): a
// client's children may outlive it there.
func ownGroup(*exec.Cmd) {}

// killGroup kills cmd's process only.
func killGroup(cmd *exec.Cmd) error { return cmd.Process.Kill() }

// alive says every process is alive where that cannot be asked cheaply,
// so CleanTemp removes nothing there.
func alive(int) bool { return true }
