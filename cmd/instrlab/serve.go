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
	"strings"
	"time"

	"github.com/instrlab/instrlab/lab"
)

func runServe(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] == "-h" || args[0] == "-help" || args[0] == "--help" {
		fmt.Fprintf(stdout, "Usage: instrlab serve lab|proxy [flags]\n\nServers:\n\n\tlab\tthe instrumented lab server (instrlab serve lab -h)\n\tproxy\ta recording proxy in front of any server (instrlab serve proxy -h)\n")
		if len(args) == 0 {
			return usageError{"serve: name a server: lab or proxy"}
		}
		return errHelp
	}
	switch args[0] {
	case "lab":
		return runServeLab(ctx, args[1:], os.Stdin, stdout, stderr)
	case "proxy":
		return runServeProxy(ctx, args[1:], os.Stdin, stdout, stderr)
	}
	return usageError{fmt.Sprintf("serve: unknown server %q (want lab or proxy)", args[0])}
}

func runServeLab(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("serve lab", flag.ContinueOnError)
	fs.SetOutput(stderr)
	instr := fs.String("instr", "ascii:1000", "instructions: none (no field), ascii:N or japanese:N (N characters)")
	instrFile := fs.String("instr-file", "", "serve this file's text unchanged as the instructions (instead of -instr)")
	era := fs.String("era", lab.EraLegacy, "protocol era: legacy, dual or modern")
	initDelay := fs.Duration("init-delay", 0, "hold the initialize reply this long")
	discoverDelay := fs.Duration("discover-delay", 0, "hold the server/discover reply this long")
	onUnknown := fs.String("on-unknown", lab.UnknownError, "an unknown method before the handshake: error (-32601), crash or hang")
	logPath := fs.String("log", "", "append every message received and sent to this JSON Lines file")
	httpAddr := fs.String("http", "", "serve Streamable HTTP at http://ADDR/mcp instead of stdio (a bare :PORT binds 127.0.0.1)")
	allowRemote := fs.Bool("allow-remote", false, "let -http bind an address beyond loopback (the lab then serves whoever can reach it)")
	print := fs.Bool("print", false, "print the instructions text, its codewords and markers, and exit")
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: instrlab serve lab [flags]\n\nThe instrumented MCP server; stdio by default.\n\nFlags:\n")
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageError{fmt.Sprintf("serve lab: unexpected argument %q", fs.Arg(0))}
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if set["instr"] && set["instr-file"] {
		return usageError{"serve lab: -instr and -instr-file are exclusive"}
	}
	if *print && (set["http"] || set["log"]) {
		return usageError{"serve lab: -print serves nothing; drop -http and -log"}
	}
	if *allowRemote && !set["http"] {
		return usageError{"serve lab: -allow-remote applies to -http only"}
	}
	if set["http"] && !*allowRemote && !loopbackAddr(*httpAddr) {
		return usageError{fmt.Sprintf("serve lab: -http %s is not a loopback address; add -allow-remote to serve beyond this machine", *httpAddr)}
	}

	cfg := lab.Config{Era: *era, InitDelay: *initDelay, DiscoverDelay: *discoverDelay, OnUnknown: *onUnknown, Stderr: stderr}
	var err error
	if *instrFile != "" {
		cfg.Instructions, err = lab.InstructionsFile(*instrFile)
	} else {
		cfg.Instructions, err = lab.ParseInstructions(*instr)
	}
	if err != nil {
		return usageError{"serve lab: -instr: " + err.Error()}
	}
	if err := cfg.Validate(); err != nil { // before opening anything
		return usageError{"serve lab: " + err.Error()}
	}
	if _, err := cfg.Instructions.For(lab.EraInitialize); err != nil {
		return usageError{"serve lab: " + err.Error()}
	}
	if *logPath != "" {
		if cfg.Log, err = lab.OpenMessageLog(*logPath); err != nil {
			return err
		}
	}
	l, err := lab.New(cfg)
	if err != nil {
		return err
	}
	if *print {
		return printTexts(stdout, l, cfg)
	}
	if *httpAddr != "" {
		err = serveHTTP(ctx, l.Handler(), l.Log(), *httpAddr, "lab", *allowRemote, stderr)
	} else {
		err = l.ServeStdio(ctx, stdin, stdout)
	}
	if cerr := cfg.Log.Close(); err == nil {
		err = cerr
	}
	return err
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
			return usageError{fmt.Sprintf("serve %s: -http %s listens on %s, which is not loopback; add -allow-remote to serve beyond this machine", what, addr, ln.Addr())}
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
