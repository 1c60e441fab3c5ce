package main

import (
	"context"
	"flag"
	"fmt"
	"io"

	"github.com/instrlab/instrlab/internal/cli"
	"github.com/instrlab/instrlab/internal/client/clients"
	"github.com/instrlab/instrlab/internal/report"
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
	fs.Usage = cli.Usage(fs, usage("diff"))
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

// printDiff prints the comparison of a and b, and fails (exit 1) when
// something changed or nothing could be compared.
func printDiff(w io.Writer, a, b *report.Report, nameA, nameB string, o diffOptions) error {
	d, err := report.WriteDiff(w, a, b, nameA, nameB, o.tolerance, o.json)
	if err != nil {
		return err
	}
	return d.Verdict()
}
