package netjail

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"unsafe"
)

// host is Linux's: new network and mount namespaces (needs root).
var host = platform{supported: linuxSupported, isolate: linuxIsolate, setUp: linuxSetUp}

func linuxSupported() error {
	if os.Geteuid() != 0 {
		return ErrUnsupported
	}
	if _, err := os.Stat("/proc/self/ns/net"); err != nil {
		return ErrUnsupported
	}
	return nil
}

func linuxIsolate(cmd *exec.Cmd) error {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Cloneflags |= syscall.CLONE_NEWNET | syscall.CLONE_NEWNS
	return nil
}

func linuxSetUp(dir string) error {
	if err := ownNamespaces(os.Getppid()); err != nil {
		return err
	}
	if err := loopbackUp(); err != nil {
		return err
	}
	return resolvConf(dir)
}

// ownNamespaces refuses to set up a jail in the namespaces of the process
// parent: run there (by hand, or by a parent that did not isolate the
// command), the mounts below would lie over the host's own resolv.conf and
// nsswitch.conf, and every program on the machine would lose name
// resolution until they were unmounted.
func ownNamespaces(parent int) error {
	for _, ns := range []string{"mnt", "net"} {
		self, err := os.Readlink("/proc/self/ns/" + ns)
		if err != nil {
			return fmt.Errorf("jail: reading this process's %s namespace: %w", ns, err)
		}
		theirs, err := os.Readlink(fmt.Sprintf("/proc/%d/ns/%s", parent, ns))
		if err != nil {
			return fmt.Errorf("jail: reading the parent's %s namespace: %w", ns, err)
		}
		if self == theirs {
			return fmt.Errorf("jail: not in a %s namespace of its own (%s, as its parent %d); refusing to change the host's network setup (run jails through instrlab run)", ns, self, parent)
		}
	}
	return nil
}

// loopbackUp sets the IFF_UP flag of lo.
func loopbackUp() error {
	fd, err := syscall.Socket(syscall.AF_INET, syscall.SOCK_DGRAM, 0)
	if err != nil {
		return fmt.Errorf("jail: socket for lo: %w", err)
	}
	defer syscall.Close(fd)
	var req struct {
		name  [syscall.IFNAMSIZ]byte
		flags uint16
		_     [22]byte
	}
	copy(req.name[:], "lo")
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, uintptr(fd), syscall.SIOCGIFFLAGS, uintptr(unsafe.Pointer(&req))); e != 0 {
		return fmt.Errorf("jail: reading lo flags: %w", e)
	}
	req.flags |= syscall.IFF_UP
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, uintptr(fd), syscall.SIOCSIFFLAGS, uintptr(unsafe.Pointer(&req))); e != 0 {
		return fmt.Errorf("jail: bringing lo up: %w", e)
	}
	return nil
}

// resolvConf makes this mount namespace private, then bind-mounts a
// resolv.conf naming only 127.0.0.1 and an nsswitch.conf whose hosts line
// is "files dns" over the system's.
func resolvConf(dir string) error {
	if err := syscall.Mount("", "/", "", syscall.MS_REC|syscall.MS_PRIVATE, ""); err != nil {
		return fmt.Errorf("jail: making mounts private: %w", err)
	}
	rc := filepath.Join(dir, "resolv.conf")
	if err := os.WriteFile(rc, []byte("nameserver 127.0.0.1\noptions attempts:1 timeout:1\n"), 0o644); err != nil {
		return fmt.Errorf("jail: %w", err)
	}
	if err := syscall.Mount(rc, "/etc/resolv.conf", "", syscall.MS_BIND, ""); err != nil {
		return fmt.Errorf("jail: binding resolv.conf: %w", err)
	}
	if b, err := os.ReadFile("/etc/nsswitch.conf"); err == nil {
		ns := filepath.Join(dir, "nsswitch.conf")
		if err := os.WriteFile(ns, []byte(HostsFilesDNS(string(b))), 0o644); err != nil {
			return fmt.Errorf("jail: %w", err)
		}
		if err := syscall.Mount(ns, "/etc/nsswitch.conf", "", syscall.MS_BIND, ""); err != nil {
			return fmt.Errorf("jail: binding nsswitch.conf: %w", err)
		}
	}
	return nil
}
