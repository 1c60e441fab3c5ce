package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/instrlab/instrlab/internal/atlas"
	"github.com/instrlab/instrlab/internal/atlas/sweep"
	"github.com/instrlab/instrlab/internal/budget"
	"github.com/instrlab/instrlab/internal/cli"
	"github.com/instrlab/instrlab/internal/client/clients"
	"github.com/instrlab/instrlab/internal/client/npm"
	"github.com/instrlab/instrlab/internal/evidence"
	"github.com/instrlab/instrlab/internal/matrix"
	"github.com/instrlab/instrlab/internal/netjail"
)

// sweepOptions are the flags of "instrlab sweep", and what validate makes
// of them.
type sweepOptions struct {
	clients, budgets                         listFlag
	shard, matrix, format, cacheLimit, netns string

	sweep   sweep.Sweep
	targets []sweep.Target
	sh      matrix.Shard
	mode    netjail.Mode
}

func (o *sweepOptions) flags(fs *flag.FlagSet) {
	s := &o.sweep
	fs.Var(&o.clients, "client", "client and versions, as in claude-code@2.1.200..2.1.332, claude-code@all, codex@latest, gemini@'>=0.50 <0.62', or all for every client at all versions (repeatable; required)")
	fs.StringVar(&s.Out, "out", "", "the sweep's evidence directory (required; a sweep resumes from what it holds)")
	fs.IntVar(&s.Jobs, "j", 2, "runs at once within one version")
	fs.DurationVar(&s.Timeout, "timeout", 2*time.Minute, "time limit of one client run")
	fs.IntVar(&s.Grid, "grid", 0, "run this many evenly spaced versions before bisecting (0: log2 of the number of versions); a change that reverts within one interval is not seen")
	fs.BoolVar(&s.Confirm, "confirm", true, "run both neighbours of every change point a second time")
	fs.Var(&o.budgets, "budget", "also measure this budget of every version run, as a number on the timeline (a change point is a change beyond its resolution): "+strings.Join(budget.Names, ", ")+" (repeatable; wait about 8 runs a version, defer and name at most 11 and 10, result at most 21; two where a neighbouring version's edge holds)")
	fs.IntVar(&s.RepeatSensitive, "repeat-sensitive", 0, "run a row whose result is timing-sensitive again until it has this many runs: its properties become rates, never change points")
	fs.StringVar(&o.shard, "shard", "", "sweep only part k of n of each client's versions, as in 2/4 (merge the shards with instrlab report DIR...)")
	fs.StringVar(&o.matrix, "matrix", "atlas", "the sweep's matrix: a matrix file, or a built-in matrix")
	fs.StringVar(&o.format, "format", "md", "atlas format on stdout: "+atlas.StdoutFormats.String())
	fs.StringVar(&o.cacheLimit, "cache-limit", "", "keep the client installs within this size, evicting the least recently used (as in 20GiB; default $"+npm.LimitEnv+", else no limit)")
	fs.StringVar(&s.Lab, "lab", "", "instrlab executable the clients start as the lab server (default: this one)")
	fs.StringVar(&o.netns, "netns", "auto", "run each client in a loopback-only network namespace: auto (when root), on or off")
	fs.Usage = cli.Usage(fs, usage("sweep"))
}

// runSweep is "instrlab sweep": every selected version of a client run
// by bisection, and the atlas of its change points.
func runSweep(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var o sweepOptions
	fs := flag.NewFlagSet("sweep", flag.ContinueOnError)
	fs.SetOutput(stderr)
	o.flags(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := o.validate(ctx, fs.Args()); err != nil {
		return err
	}
	return o.run(ctx, "instrlab sweep "+strings.Join(args, " "), stdout, stderr)
}

// validate checks the flags and reads the targets and the sweep's matrix.
func (o *sweepOptions) validate(ctx context.Context, rest []string) error {
	if len(rest) > 0 {
		return usageError{Msg: fmt.Sprintf("sweep: unexpected argument %q", rest[0])}
	}
	if len(o.clients) == 0 {
		return usageError{Msg: "sweep: -client is required, as in -client claude-code@2.1.200..2.1.332"}
	}
	o.sweep.NewClient = clients.New
	if err := o.sweep.Validate(); err != nil {
		return usageError{Msg: err.Error()}
	}
	if err := budget.CheckNames(o.budgets); err != nil {
		return usageError{Msg: err.Error()}
	}
	o.sweep.Budgets, o.sweep.MeasureBudget = o.budgets, new(budget.Sweeper).Property
	if err := atlas.StdoutFormats.Check(o.format); err != nil {
		return usageError{Msg: err.Error()}
	}
	if err := npm.SetLimit(o.cacheLimit); err != nil {
		return usageError{Msg: err.Error()}
	}
	var err error
	if o.sh, err = matrix.ParseShard(o.shard); err != nil {
		return usageError{Msg: err.Error()}
	}
	if o.mode, err = netjail.ParseMode(o.netns); err != nil {
		return usageError{Msg: err.Error()}
	}
	if o.targets, err = o.sweep.Targets(o.clients, clients.Names()); err != nil {
		return usageError{Msg: err.Error()}
	}
	if o.sweep.Matrix, err = matrix.Named(ctx, o.matrix, nil); err != nil {
		return usageError{Msg: "-matrix: " + err.Error()}
	}
	return nil
}

// run sweeps the targets and prints the atlas; command is the command line
// the atlas records.
func (o *sweepOptions) run(ctx context.Context, command string, stdout, stderr io.Writer) error {
	s := &o.sweep
	if err := os.MkdirAll(s.Out, 0o755); err != nil {
		return fmt.Errorf("creating %s: %w", s.Out, err)
	}
	s.Progress, s.Released = stderr, clients.Released
	var err error
	if s.Netns, err = o.mode.Use(false, stderr); err != nil {
		return err
	}
	s.Gate = budget.Gate(s.Pinned(o.targets), s.Jobs, 0, stderr)
	a, err := s.Atlas(ctx, o.targets, o.sh, clients.Versions, command)
	if err != nil {
		return err
	}
	out := evidence.SweepDir(s.Out)
	fmt.Fprintf(stderr, "atlas in %s, %s and %s\n", out.Atlas(), out.AtlasMD(), out.AtlasHTML())
	return a.Write(stdout, o.format)
}
