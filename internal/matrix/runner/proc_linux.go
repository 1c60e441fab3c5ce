package runner

import "syscall"

// dieWithParent has the kernel kill the process when the runner dies,
// however it dies (kill -9 included).
func dieWithParent(a *syscall.SysProcAttr) { a.Pdeathsig = syscall.SIGKILL }
