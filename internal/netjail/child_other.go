//go:build !linux

package netjail

import "syscall"

// childAttr: no jail runs off Linux.
func childAttr() *syscall.SysProcAttr { return nil }
