package netjail

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"syscall"
)

// Main is "instrlab jail": it runs inside the namespaces Wrap made, sets
// them up (loopback, resolver, forwarders to the fake), runs the client and
// exits with its status. It returns only on a setup error; off Linux, at
// once with ErrNotLinux.
func Main(args []string, stderr io.Writer) (int, error) {
	fs := flag.NewFlagSet("jail", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var forwards, hosts listFlag
	fs.Var(&forwards, "forward", "ADDR=SOCKET: forward the loopback address ADDR inside the jail to the Unix socket SOCKET outside (repeatable)")
	fs.Var(&hosts, "host", "a name the resolver answers with 127.0.0.1 (repeatable)")
	logPath := fs.String("log", "", "resolver log file")
	dir := fs.String("dir", "", "directory for the jail's resolv.conf and nsswitch.conf")
	if err := fs.Parse(args); err != nil {
		return 2, err
	}
	argv := fs.Args()
	if len(argv) == 0 || len(forwards) == 0 || *logPath == "" || *dir == "" {
		return 2, errors.New("jail: want -forward, -log, -dir and a command after --")
	}
	var fw []Forward
	for _, f := range forwards {
		addr, sock, ok := strings.Cut(f, "=")
		if !ok || addr == "" || sock == "" {
			return 2, fmt.Errorf("jail: -forward %q: want ADDR=SOCKET", f)
		}
		fw = append(fw, Forward{Addr: addr, Socket: sock})
	}
	if err := host.setUp(*dir); err != nil {
		return 1, err
	}
	logf, err := os.OpenFile(*logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return 1, fmt.Errorf("jail: opening resolver log: %w", err)
	}
	defer logf.Close()
	res, err := ListenResolver("127.0.0.1:53", logf, hosts...)
	if err != nil {
		return 1, err
	}
	defer res.Close()
	for _, f := range fw {
		fwd, err := ForwardTo(f.Addr, f.Socket)
		if err != nil {
			return 1, err
		}
		defer fwd.Close()
	}

	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	cmd.SysProcAttr = childAttr()
	if err := cmd.Start(); err != nil {
		return 127, fmt.Errorf("jail: starting %s: %w", argv[0], err)
	}
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
	go func() {
		for s := range sigs {
			_ = cmd.Process.Signal(s)
		}
	}()
	err = cmd.Wait()
	signal.Stop(sigs)
	if cmd.ProcessState != nil {
		if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			return 128 + int(ws.Signal()), nil
		}
		return cmd.ProcessState.ExitCode(), nil
	}
	return 1, err
}

// HostsFilesDNS rewrites the hosts line of an nsswitch.conf to "files dns".
func HostsFilesDNS(conf string) string {
	lines := strings.Split(conf, "\n")
	found := false
	for i, l := range lines {
		if strings.HasPrefix(strings.TrimSpace(l), "hosts:") {
			lines[i], found = "hosts: files dns", true
		}
	}
	if !found {
		lines = append(lines, "hosts: files dns")
	}
	return strings.Join(lines, "\n")
}

// A Forwarder accepts TCP connections and pipes each to a Unix socket.
type Forwarder struct{ ln net.Listener }

// ForwardTo listens on the TCP address addr and forwards to sock.
func ForwardTo(addr, sock string) (*Forwarder, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("jail: forwarder: %w", err)
	}
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go pipe(c, sock)
		}
	}()
	return &Forwarder{ln: ln}, nil
}

// Close stops accepting.
func (f *Forwarder) Close() error { return f.ln.Close() }

func pipe(c net.Conn, sock string) {
	defer c.Close()
	u, err := net.Dial("unix", sock)
	if err != nil {
		return
	}
	defer u.Close()
	done := make(chan struct{}, 2)
	go func() {
		_, _ = io.Copy(u, c)
		if cw, ok := u.(interface{ CloseWrite() error }); ok {
			_ = cw.CloseWrite()
		}
		done <- struct{}{}
	}()
	go func() {
		_, _ = io.Copy(c, u)
		if cw, ok := c.(interface{ CloseWrite() error }); ok {
			_ = cw.CloseWrite()
		}
		done <- struct{}{}
	}()
	<-done
	<-done
}

// listFlag is a repeatable string flag.
type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ",") }
func (l *listFlag) Set(v string) error { *l = append(*l, v); return nil }
