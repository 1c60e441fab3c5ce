package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"runtime/debug"
	"strings"
	"time"

	"github.com/instrlab/instrlab/lab"
)

func runServe(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] == "-h" || args[0] == "-help" || args[0] == "--help" {
		fmt.Fprintf(stdout, "Usage: instrlab serve lab|proxy [flags]\n\nServers:\n\n\tlab\tthe instrumented lab server (instrlab serve lab -h)\n\tproxy\ta recording proxy in front of any server (instrlab serve proxy -h)\n")
		if len(args) == 0 {
			return usageError{Msg: "serve: name a server: lab or proxy"}
		}
		return errHelp
	}
	switch args[0] {
	case "lab":
		return runServeLab(ctx, args[1:], os.Stdin, stdout, stderr)
	case "proxy":
		return runServeProxy(ctx, args[1:], os.Stdin, stdout, stderr)
	}
	return usageError{Msg: fmt.Sprintf("serve: unknown server %q (want lab or proxy)", args[0])}
}

func runServeLab(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("serve lab", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var a lab.Args
	a.Flags(fs)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: instrlab serve lab [flags]\n\nThe instrumented MCP server; stdio by default.\n\nFlags:\n")
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageError{Msg: fmt.Sprintf("serve lab: unexpected argument %q", fs.Arg(0))}
	}
	if err := a.Check(fs); err != nil {
		return usageError{Msg: "serve lab: " + err.Error()}
	}
	httpSet := false
	fs.Visit(func(f *flag.Flag) { httpSet = httpSet || f.Name == "http" })
	if httpSet && !a.AllowRemote && !loopbackAddr(a.HTTP) {
		return usageError{Msg: fmt.Sprintf("serve lab: -http %s is not a loopback address; add -allow-remote to serve beyond this machine", a.HTTP)}
	}
	cfg, err := a.Config() // before opening anything
	if err != nil {
		return usageError{Msg: "serve lab: " + err.Error()}
	}
	cfg.Stderr = stderr
	if a.Log != "" {
		if cfg.Log, err = lab.OpenMessageLog(a.Log); err != nil {
			return err
		}
	}
	l, err := lab.New(cfg)
	if err != nil {
		return err
	}
	if a.Print {
		return printTexts(stdout, l, cfg)
	}
	if a.HTTP != "" {
		err = serveHTTP(ctx, l.Handler(), l.Log(), a.HTTP, "lab", a.AllowRemote, stderr)
	} else {
		restore := tuneStdioGC()
		err = l.ServeStdio(ctx, stdin, stdout)
		restore()
	}
	if cerr := cfg.Log.Close(); err == nil {
		err = cerr
	}
	return err
}

// serve lab over stdio collects garbage less often than Go's default: a
// client that pipelines requests has it allocate a few KiB a request over a
// live heap of a few MiB, so that at GOGC=100 it collected dozens of times a
// second. Interleaved, 20,000 pipelined tools/list with the log on, load
// 10-12: 18,133 per second at the default, 25,542 at 400, for a peak RSS of
// 32.5 MiB against 20.9. The memory limit bounds what the higher target can
// cost when the live heap grows (requests in flight are bounded to about 32
// MiB of held memory).
const (
	stdioGCPercent   = 400
	stdioMemoryLimit = 128 << 20
)

// tuneStdioGC sets stdioGCPercent and stdioMemoryLimit, unless GOGC or
// GOMEMLIMIT says otherwise, and returns the function that restores the
// settings it found.
func tuneStdioGC() (restore func()) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return func() {}
	}
	percent := debug.SetGCPercent(stdioGCPercent)
	limit := debug.SetMemoryLimit(stdioMemoryLimit)
	return func() {
		debug.SetGCPercent(percent)
		debug.SetMemoryLimit(limit)
	}
}

func printTexts(w io.Writer, l *lab.Lab, cfg lab.Config) error {
	initText, discoverText := l.Texts()
	show := func(label string, t lab.Text) {
		fmt.Fprintf(w, "# %s (%s, era %s): %d characters, %d bytes\n", label, cfg.Instructions, cfg.Era, t.Length(), len(t.Text))
		if t.Begin != "" {
			markers := "no markers"
			if n := len(t.Markers); n > 0 {
				markers = fmt.Sprintf("%d markers, the last [at %d]", n, t.Markers[n-1])
			}
			fmt.Fprintf(w, "# BEGIN %s  END %s  %s\n", t.Begin, t.End, markers)
		}
		fmt.Fprintf(w, "%s\n", t.Text)
	}
	if !cfg.Instructions.Present() {
		fmt.Fprintf(w, "# no instructions field\n")
		return nil
	}
	switch cfg.Era {
	case lab.EraLegacy:
		show("initialize", initText)
	case lab.EraModern:
		show("server/discover", discoverText)
	default:
		show("initialize", initText)
		show("server/discover", discoverText)
	}
	return nil
}

// loopbackAddr reports whether addr, as -http takes it, names a loopback
// host: a bare :PORT, localhost, or a loopback IP.
func loopbackAddr(addr string) bool {
	host, _, err := net.SplitHostPort(listenAddr(addr))
	if err != nil {
		return false
	}
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// listenAddr binds a bare :PORT to loopback.
func listenAddr(addr string) string {
	if strings.HasPrefix(addr, ":") {
		return "127.0.0.1" + addr
	}
	return addr
}

// serveHTTP serves h at http://addr/mcp until ctx is done or log (which
// may be nil) fails; what names the server in errors and the startup line.
func serveHTTP(ctx context.Context, h http.Handler, log *lab.MessageLog, addr, what string, allowRemote bool, stderr io.Writer) error {
	ln, err := net.Listen("tcp", listenAddr(addr))
	if err != nil {
		return fmt.Errorf("serve %s: listening: %w", what, err)
	}
	if ip := ln.Addr().(*net.TCPAddr).IP; !ip.IsLoopback() {
		if !allowRemote { // localhost resolved beyond loopback
			ln.Close()
			return usageError{Msg: fmt.Sprintf("serve %s: -http %s listens on %s, which is not loopback; add -allow-remote to serve beyond this machine", what, addr, ln.Addr())}
		}
		fmt.Fprintf(stderr, "instrlab: warning: listening on %s, which is not loopback (-allow-remote)\n", ln.Addr())
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp", h)
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	fmt.Fprintf(stderr, "instrlab: %s serving http://%s/mcp\n", what, ln.Addr())
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-log.Failed():
		// Serve no request that would go unrecorded.
		srv.Close()
		return fmt.Errorf("stopped serving: %w", log.Err())
	case <-ctx.Done():
		shutdown, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		if err := srv.Shutdown(shutdown); err != nil && !errors.Is(err, context.DeadlineExceeded) {
			return err
		}
		return nil
	}
}
