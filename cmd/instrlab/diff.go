package main

import (
	"context"
	"flag"
	"fmt"
	"github.com/instrlab/instrlab/schema"
	"io"

	"github.com/instrlab/instrlab/internal/client/clients"
	"github.com/instrlab/instrlab/internal/report"
	"github.com/instrlab/instrlab/internal/table"
)

// diffOptions are the flags of "instrlab diff" and of "run -baseline".
type diffOptions struct {
	json      bool
	tolerance float64
}

func (o *diffOptions) register(fs *flag.FlagSet) {
	fs.BoolVar(&o.json, "json", false, "print the changes as JSON")
	fs.Float64Var(&o.tolerance, "tolerance", 0.1, "share by which two token estimates may differ and count as equal")
}

func (o *diffOptions) check() error {
	if o.tolerance < 0 || o.tolerance >= 1 {
		return usageError{Msg: fmt.Sprintf("-tolerance %g: want a share from 0 to below 1", o.tolerance)}
	}
	return nil
}

// runDiff is "instrlab diff A B".
func runDiff(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("diff", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var o diffOptions
	o.register(fs)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), `Usage: instrlab diff [flags] A B

Compares two runs of a matrix, each an evidence directory (run -out) or a
results.json: per configuration and client, what changed in the runs'
outcome, the probe, whether the client waited for the server, the
placement, the characters kept, the cap and the token estimate (beyond
-tolerance). Timings are ignored. Two versions of one client are compared
when each side ran one. What cannot be compared (a row or client on one
side only, a row configured differently) is said, not counted as changes.
Exit status: 0 nothing changed, 1 something changed or could not be
compared, 2 usage.

Flags:
`)
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 2 {
		return usageError{Msg: "diff: want two runs, A and B"}
	}
	if err := o.check(); err != nil {
		return err
	}
	var reps [2]*report.Report
	for i := range reps {
		rep, warnings, err := report.Open(clients.New, fs.Arg(i))
		if err != nil {
			return usageError{Msg: "diff: " + err.Error()}
		}
		for _, w := range warnings {
			fmt.Fprintf(stderr, "warning: %s\n", w)
		}
		reps[i] = rep
	}
	return printDiff(stdout, reps[0], reps[1], fs.Arg(0), fs.Arg(1), o)
}

// printDiff prints the comparison of a and b and returns an exitError(1)
// when something changed.
func printDiff(w io.Writer, a, b *report.Report, nameA, nameB string, o diffOptions) error {
	d := report.Compare(a, b, o.tolerance)
	d.A, d.B = nameA, nameB
	var err error
	if o.json {
		err = table.JSON(w, schema.Named(schema.Diff, d))
	} else {
		err = table.Text(w, d.Table())
	}
	if err != nil {
		return err
	}
	if len(d.Pairs) == 0 || len(d.Rows) == 0 {
		return exitError{exitFailure, fmt.Errorf("diff: nothing in common to compare between %s and %s", nameA, nameB)}
	}
	if d.Changed() {
		return exitError{exitFailure, fmt.Errorf("diff: %d changes, %d things not compared", len(d.Changes), len(d.Incomparable))}
	}
	return nil
}
