package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/instrlab/instrlab/internal/budget"
	"github.com/instrlab/instrlab/internal/cli"
	"github.com/instrlab/instrlab/internal/client/clients"
	"github.com/instrlab/instrlab/internal/netjail"
)

// runBudget is "instrlab budget": a client's budgets measured as numbers,
// by bisection over runs of the real client; internal/budget owns the
// work.
func runBudget(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("budget", flag.ContinueOnError)
	fs.SetOutput(stderr)
	c := budget.Command{Line: "instrlab budget " + strings.Join(args, " "), NewClients: clients.NewList}
	fs.Var((*listFlag)(&c.Specs), "client", "client and version, as in claude-code@2.1.328 or claude-code@newest, or all: every pinned client (repeatable; required)")
	fs.Var((*listFlag)(&c.Budgets), "budget", "budget to measure: "+strings.Join(budget.Names, ", ")+" (repeatable; default wait)")
	fs.Var((*listFlag)(&c.Settings), "env", "measure with this setting in the client's environment, NAME=VALUE (repeatable)")
	fs.StringVar(&c.Out, "out", "", "evidence directory, one subdirectory per client, budget and run (required)")
	fs.StringVar(&c.MatrixName, "matrix", "atlas", "the matrix of the measured row: a matrix file, or a built-in matrix")
	fs.StringVar(&c.Row, "row", budget.ProbeRow, "the measured row, varied per run (its script may make later requests, to see a late server join)")
	fs.IntVar(&c.Jobs, "j", 1, "clients measured at once (each client's runs one after another; their servers' start-ups held under a quarter of the smallest wait budget)")
	fs.DurationVar(&c.Timeout, "timeout", 3*time.Minute, "time limit of one client run (a client that blocks for its server waits up to 60 s)")
	fs.StringVar(&c.Format, "format", "text", "output format: "+budget.Formats.String())
	fs.StringVar(&c.Profile, "profile-out", "", "write the measurements into this profile file (internal/profiles/data/NAME@VERSION.json), or each client's into its NAME@VERSION.json in this directory")
	fs.StringVar(&c.Lab, "lab", "", "instrlab executable the clients start as the lab server (default: this one)")
	netns := fs.String("netns", "auto", "run each client in a loopback-only network namespace: auto (when root), on or off")
	fs.Usage = cli.Usage(fs, usage("budget"))
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageError{Msg: fmt.Sprintf("budget: unexpected argument %q", fs.Arg(0))}
	}
	if err := c.Validate(ctx); err != nil {
		return usageError{Msg: err.Error()}
	}
	mode, err := netjail.ParseMode(*netns)
	if err != nil {
		return usageError{Msg: err.Error()}
	}
	if c.Netns, err = mode.Use(false, stderr); err != nil {
		return err
	}
	c.Progress = stderr
	return c.Run(ctx, stdout, stderr)
}
