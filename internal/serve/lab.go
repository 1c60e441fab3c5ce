package serve

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/debug"

	"github.com/instrlab/instrlab/internal/cli"
	"github.com/instrlab/instrlab/lab"
)

// serveLab runs the lab's command line args as c names it.
func serveLab(ctx context.Context, c cmdline, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet(c.usage, flag.ContinueOnError)
	fs.SetOutput(stderr)
	var a lab.Args
	a.Flags(fs)
	fs.Usage = cli.Usage(fs, fmt.Sprintf("Usage: %s [flags]\n\nThe instrumented MCP server; stdio by default.\n\nFlags:\n", c.usage))
	if err := cli.ParseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return cli.UsageError{Msg: fmt.Sprintf("%sunexpected argument %q", c.prefix, fs.Arg(0))}
	}
	if err := a.Check(fs); err != nil {
		return cli.UsageError{Msg: c.prefix + err.Error()}
	}
	httpSet := false
	fs.Visit(func(f *flag.Flag) { httpSet = httpSet || f.Name == "http" })
	if httpSet && !a.AllowRemote && !loopbackAddr(a.HTTP) {
		return cli.UsageError{Msg: fmt.Sprintf("%s-http %s is not a loopback address; add -allow-remote to serve beyond this machine", c.prefix, a.HTTP)}
	}
	cfg, err := a.Config() // before opening anything
	if err != nil {
		return cli.UsageError{Msg: c.prefix + err.Error()}
	}
	cfg.Stderr = stderr
	start, how := lab.ProcessStart()
	cfg.Started = start
	if a.Log != "" {
		if cfg.Log, err = lab.OpenMessageLog(a.Log); err != nil {
			return err
		}
		if err := cfg.Log.Started(start, how); err != nil {
			cfg.Log.Close()
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
		err = serveHTTP(ctx, c, "lab", l.Handler(), l.Log(), a.HTTP, a.AllowRemote, stderr)
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

// The lab over stdio collects garbage less often than Go's default: a
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
		fmt.Fprintf(w, "# %s (%s, eras %s): %d characters, %d bytes\n", label, cfg.Instructions, cfg.Eras, t.Length(), len(t.Text))
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
	switch cfg.Eras {
	case lab.ModeLegacy:
		show("initialize", initText)
	case lab.ModeModern:
		show("server/discover", discoverText)
	default:
		show("initialize", initText)
		show("server/discover", discoverText)
	}
	return nil
}
