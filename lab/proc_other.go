//go:build !unix

package lab

import "os/exec"

func setProcessGroup(cmd *exec.Cmd) {}

func terminateProcessGroup(cmd *exec.Cmd) { cmd.Process.Kill() }

func killProcessGroup(cmd *exec.Cmd) { cmd.Process.Kill() }
