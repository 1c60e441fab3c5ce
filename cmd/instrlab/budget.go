package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/instrlab/instrlab/internal/budget"
	"github.com/instrlab/instrlab/internal/client/clients"
	"github.com/instrlab/instrlab/internal/matrix"
	"github.com/instrlab/instrlab/internal/netjail"
)

// runBudget is "instrlab budget": a client's budgets measured as numbers,
// by bisection over runs of the real client (internal/budget).
func runBudget(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("budget", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var clientFlags, budgetFlags, envFlags listFlag
	fs.Var(&clientFlags, "client", "client and version, as in claude-code@2.1.328 (repeatable; required)")
	fs.Var(&budgetFlags, "budget", "budget to measure: "+strings.Join(budget.Names, ", ")+" (repeatable; default wait)")
	fs.Var(&envFlags, "env", "measure with this setting in the client's environment, NAME=VALUE (repeatable)")
	c := budget.Command{Line: "instrlab budget " + strings.Join(args, " ")}
	fs.StringVar(&c.Out, "out", "", "evidence directory, one subdirectory per client, budget and run (required)")
	matrixPath := fs.String("matrix", "atlas", "matrix of the probe row: a matrix file, or a built-in matrix")
	fs.StringVar(&c.Row, "row", budget.ProbeRow, "the probe row, varied per run (its script may make later requests, to see a late server join)")
	fs.DurationVar(&c.Timeout, "timeout", 3*time.Minute, "time limit of one client run (a client that blocks for its server waits up to 60 s)")
	fs.StringVar(&c.Format, "format", "text", "output format: "+budget.Formats.String())
	fs.StringVar(&c.Profile, "profile", "", "write the measurements into this profile file (internal/profiles/data/NAME@VERSION.json)")
	fs.StringVar(&c.Lab, "lab", "", "instrlab executable the clients start as the lab server (default: this one)")
	netns := fs.String("netns", "auto", "run each client in a loopback-only network namespace: auto (when root), on or off")
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: instrlab budget -client NAME@VERSION -out DIR [flags]\n\nMeasures a client's budgets as numbers, by bisection over runs of the real client,\noffline: the wait budget is how long it waits, before its first model request, for\na server still starting (ready 0 to 60 s after its start, to 10%% or 100 ms), what it\ndoes past it, and whether a server ready later reaches a later request. Measure on a\nquiet machine: the output says the load the runs saw.\n\nFlags:\n")
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	c.Budgets = budgetFlags
	if len(c.Budgets) == 0 {
		c.Budgets = []string{budget.Wait}
	}
	var err error
	switch c.Env, err = budget.ParseSettings(envFlags); {
	case fs.NArg() > 0:
		return usageError{Msg: fmt.Sprintf("budget: unexpected argument %q", fs.Arg(0))}
	case len(clientFlags) == 0:
		return usageError{Msg: "budget: -client is required, as in -client claude-code@2.1.328"}
	case c.Out == "":
		return usageError{Msg: "budget: -out is required"}
	case c.Timeout <= 0:
		return usageError{Msg: "-timeout must be positive"}
	case err != nil:
		return usageError{Msg: err.Error()}
	}
	if c.Clients, err = clients.NewList(clientFlags); err != nil {
		return usageError{Msg: "-client: " + err.Error()}
	}
	if err := c.Check(); err != nil {
		return usageError{Msg: err.Error()}
	}
	if c.Matrix, err = matrix.Named(*matrixPath, matrix.Atlas()); err != nil {
		return usageError{Msg: "-matrix: " + err.Error()}
	}
	if c.Lab == "" {
		if c.Lab, err = os.Executable(); err != nil {
			return fmt.Errorf("finding this executable for the lab server: %w", err)
		}
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
