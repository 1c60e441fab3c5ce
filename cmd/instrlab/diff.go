package main

import (
	"context"
	"flag"
	"io"

	"github.com/instrlab/instrlab/internal/cli"
	"github.com/instrlab/instrlab/internal/client/clients"
	"github.com/instrlab/instrlab/internal/report"
)

// diffFlags are the flags of "instrlab diff" and of "run -baseline".
func diffFlags(fs *flag.FlagSet, o *report.DiffOptions) {
	fs.BoolVar(&o.JSON, "json", false, "print the changes as JSON (diff: -format json)")
	fs.Float64Var(&o.Tolerance, "tolerance", 0.1, "share by which two token estimates may differ and count as equal")
}

// runDiff is "instrlab diff A B": exit 1 when something changed or
// nothing could be compared.
func runDiff(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("diff", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var o report.DiffOptions
	diffFlags(fs, &o)
	fs.StringVar(&o.Format, "format", "text", "output: "+report.DiffFormats.String()+" (md: each client's outcome, then the changes: a job summary, an issue)")
	fs.StringVar(&o.Client, "client", "", "compare only the client of this name, as in codex")
	fs.Usage = cli.Usage(fs, usage("diff"))
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 2 {
		return usageError{Msg: "diff: want two runs, A and B"}
	}
	if err := o.Validate(); err != nil {
		return usageError{Msg: err.Error()}
	}
	var reps [2]*report.Report
	for i := range reps {
		rep, warnings, err := report.Open(ctx, clients.New, fs.Arg(i))
		if err != nil {
			return usageError{Msg: "diff: " + err.Error()}
		}
		warn(stderr, warnings)
		reps[i] = rep
	}
	return report.WriteDiff(stdout, reps[0], reps[1], fs.Arg(0), fs.Arg(1), o)
}
