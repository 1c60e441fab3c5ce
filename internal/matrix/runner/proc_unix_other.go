//go:build unix && !linux

package runner

import "syscall"

// dieWithParent does nothing where there is no parent-death signal: a
// killed runner's clients outlive it there until their input ends.
func dieWithParent(*syscall.SysProcAttr) {}
