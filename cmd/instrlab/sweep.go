package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/instrlab/instrlab/internal/atlas"
	"github.com/instrlab/instrlab/internal/client"
	"github.com/instrlab/instrlab/internal/client/clients"
	"github.com/instrlab/instrlab/internal/client/npm"
	"github.com/instrlab/instrlab/internal/evidence"
	"github.com/instrlab/instrlab/internal/matrix"
)

// runSweep is "instrlab sweep": every selected version of a client probed
// by bisection, and the atlas of its change points.
func runSweep(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("sweep", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var clientFlags listFlag
	fs.Var(&clientFlags, "client", "client and versions, as in claude-code@2.1.200..2.1.332, claude-code@all, codex@latest, gemini@'>=0.50 <0.62', or all for every client at all versions (repeatable; required)")
	out := fs.String("out", "", "the sweep's evidence directory (required; a sweep resumes from what it holds)")
	jobs := fs.Int("j", 2, "runs at once within one version")
	timeout := fs.Duration("timeout", 2*time.Minute, "time limit of one client run")
	grid := fs.Int("grid", 0, "probe this many evenly spaced intervals before bisecting (0: log2 of the number of versions); a change that reverts within one interval is not seen")
	confirm := fs.Bool("confirm", true, "probe both neighbours of every change point a second time")
	shard := fs.String("shard", "", "sweep only part k of n of each client's versions, as in 2/4 (merge the shards with instrlab report DIR...)")
	matrixPath := fs.String("matrix", "atlas", "probe matrix: a matrix file, or a built-in matrix")
	format := fs.String("format", "md", "atlas format on stdout: "+atlas.StdoutFormats.String())
	cacheLimit := fs.String("cache-limit", "", "keep the client installs within this size, evicting the least recently used (as in 20GiB; default $"+npm.LimitEnv+", else no limit)")
	labBin := fs.String("lab", "", "instrlab executable the clients start as the lab server (default: this one)")
	netns := fs.String("netns", "auto", "run each client in a loopback-only network namespace: auto (when root), on or off")
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: instrlab sweep -client NAME@VERSIONS -out DIR [flags]\n\nInstalls versions of a client as needed, runs a small probe matrix on each and finds,\nby bisection over the published versions, every version where what the client does\nwith a server's instructions changed. Writes DIR/atlas.json, DIR/atlas.md and DIR/atlas.html.\n\nFlags:\n")
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	switch {
	case fs.NArg() > 0:
		return usageError{Msg: fmt.Sprintf("sweep: unexpected argument %q", fs.Arg(0))}
	case len(clientFlags) == 0:
		return usageError{Msg: "sweep: -client is required, as in -client claude-code@2.1.200..2.1.332"}
	case *out == "":
		return usageError{Msg: "sweep: -out is required (a sweep is long and resumes from its directory)"}
	case *jobs < 1:
		return usageError{Msg: "-j must be at least 1"}
	case *timeout <= 0:
		return usageError{Msg: "-timeout must be positive"}
	case *grid < 0:
		return usageError{Msg: "-grid must be 0 or more"}
	case atlas.StdoutFormats.Check(*format) != nil:
		return usageError{Msg: atlas.StdoutFormats.Check(*format).Error()}
	}
	sh, err := matrix.ParseShard(*shard)
	if err != nil {
		return usageError{Msg: err.Error()}
	}
	if *cacheLimit != "" {
		if _, err := npm.ParseSize(*cacheLimit); err != nil {
			return usageError{Msg: "-cache-limit: " + err.Error()}
		}
		os.Setenv(npm.LimitEnv, *cacheLimit)
	} else if _, err := npm.LimitFromEnv(); err != nil {
		return usageError{Msg: err.Error()}
	}
	var targets []atlas.Target
	for _, c := range clientFlags {
		if c == "all" {
			for _, n := range clients.Names() {
				t, _ := atlas.ParseTarget(n)
				targets = append(targets, t)
			}
			continue
		}
		t, err := atlas.ParseTarget(c)
		if err != nil {
			return usageError{Msg: err.Error()}
		}
		if _, err := clients.New(t.Client); err != nil {
			return usageError{Msg: "-client: " + err.Error()}
		}
		targets = append(targets, t)
	}
	m, ok := matrix.Builtin(*matrixPath)
	if !ok {
		if m, err = matrix.Load(*matrixPath); err != nil {
			return usageError{Msg: "-matrix: " + err.Error()}
		}
	}
	if *labBin == "" {
		if *labBin, err = os.Executable(); err != nil {
			return fmt.Errorf("finding this executable for the lab server: %w", err)
		}
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return fmt.Errorf("creating %s: %w", *out, err)
	}
	s := &atlas.Sweep{Out: *out, Lab: *labBin, Jobs: *jobs, Timeout: *timeout, Grid: *grid, Confirm: *confirm,
		Matrix: m, NewClient: clients.New, Progress: stderr}
	if s.Netns, err = useNetns(*netns, false, stderr); err != nil {
		return err
	}
	a, err := s.Atlas(ctx, targets, sh, publishedVersions, "instrlab sweep "+strings.Join(args, " "))
	if err != nil {
		if errors.Is(err, atlas.ErrNoMatch) {
			return usageError{Msg: err.Error()}
		}
		return err
	}
	fmt.Fprintf(stderr, "atlas in %s, %s and %s\n", evidence.SweepDir(*out).Atlas(), evidence.SweepDir(*out).AtlasMD(), evidence.SweepDir(*out).AtlasHTML())
	return a.Write(stdout, *format)
}

// publishedVersions lists what npm serves of a client's package.
func publishedVersions(ctx context.Context, name string) ([]string, error) {
	c, err := clients.New(name)
	if err != nil {
		return nil, err
	}
	p, ok := c.(client.Published)
	if !ok {
		return nil, fmt.Errorf("%s is not installed from npm: its versions cannot be listed", name)
	}
	return npm.Versions(ctx, p.Package())
}
