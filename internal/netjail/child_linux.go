package netjail

import "syscall"

// childAttr has the client die with the jail: the jail has the same parent
// death signal from the runner, so a killed runner takes both.
func childAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
