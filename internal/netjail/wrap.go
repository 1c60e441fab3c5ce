package netjail

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"runtime"
)

// ErrUnsupported reports that this process cannot make namespaces.
var ErrUnsupported = errors.New("a loopback-only network namespace needs Linux and root")

// ErrNotLinux is what every entry point returns on an OS without network
// namespaces (all but Linux): runs there are not network-isolated. It wraps
// ErrUnsupported.
var ErrNotLinux = fmt.Errorf("%w: %s has no network namespaces, so runs here are not network-isolated", ErrUnsupported, runtime.GOOS)

// Options say how to jail one client run.
type Options struct {
	// Self is an instrlab executable; the jail runs as "Self jail ...".
	Self string
	// Forwards are the loopback addresses inside the jail that lead to
	// Unix sockets outside: the fake API's (the address the client was
	// told), its TLS port for the direct arm (127.0.0.1:443), an HTTP
	// server's.
	Forwards []Forward
	// Hosts are the names the jail's resolver answers with 127.0.0.1 (the
	// direct arm's vendor hosts); it answers every other name NXDOMAIN.
	Hosts []string
	// Log is the resolver's log file (JSON Lines of Lookup).
	Log string
	// Dir holds the jail's resolv.conf and nsswitch.conf.
	Dir string
}

// A Forward leads connections to Addr, a loopback address inside the
// jail, to the Unix socket Socket outside it: a path in the file system
// crosses the namespace, TCP does not.
type Forward struct {
	Addr, Socket string
}

// String is the forward as -forward takes it: ADDR=SOCKET.
func (f Forward) String() string { return f.Addr + "=" + f.Socket }

// Args are the arguments of "Self jail" that run argv under o.
func (o Options) Args(argv []string) []string {
	args := []string{"jail"}
	for _, f := range o.Forwards {
		args = append(args, "-forward", f.String())
	}
	for _, h := range o.Hosts {
		args = append(args, "-host", h)
	}
	args = append(args, "-log", o.Log, "-dir", o.Dir, "--")
	return append(args, argv...)
}

// Wrap returns a command that runs cmd in new network and mount
// namespaces through "Self jail", bound to ctx, with cmd's environment and
// working directory. The caller sets its standard streams and may add to
// its SysProcAttr, keeping what Wrap set. Off Linux it returns ErrNotLinux.
func Wrap(ctx context.Context, cmd *exec.Cmd, o Options) (*exec.Cmd, error) {
	argv := append([]string{cmd.Path}, cmd.Args[1:]...)
	w := exec.CommandContext(ctx, o.Self, o.Args(argv)...)
	w.Env, w.Dir = cmd.Env, cmd.Dir
	if err := host.isolate(w); err != nil {
		return nil, err
	}
	return w, nil
}

// Supported reports whether jails can be made here: Linux, as root.
func Supported() error { return host.supported() }
