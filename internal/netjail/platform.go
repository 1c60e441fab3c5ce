package netjail

import "os/exec"

// A platform is what a jail needs of the operating system. Linux has
// namespaces (platform_linux.go); every other OS gets noNamespaces
// (platform_other.go), whose entry points all return ErrNotLinux. The
// variable host is the one this build uses; process setup that only Linux
// can do (namespaces, mounts, a parent-death signal) goes in
// platform_linux.go, never here.
type platform struct {
	// supported reports whether this process can make jails.
	supported func() error
	// isolate sets cmd to start in new network and mount namespaces.
	isolate func(cmd *exec.Cmd) error
	// setUp runs inside the namespaces: loopback up, the resolver's
	// configuration (written to dir) mounted over the system's.
	setUp func(dir string) error
}

// noNamespaces is the platform of an OS without network namespaces. It is
// defined here, not in platform_other.go, so the tests on Linux run it too.
var noNamespaces = platform{
	supported: func() error { return ErrNotLinux },
	isolate:   func(*exec.Cmd) error { return ErrNotLinux },
	setUp:     func(string) error { return ErrNotLinux },
}
