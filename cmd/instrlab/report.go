package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/instrlab/instrlab/internal/atlas"
	"github.com/instrlab/instrlab/internal/client/clients"
	"github.com/instrlab/instrlab/internal/evidence"
	"github.com/instrlab/instrlab/internal/profiles/derive"

	"github.com/instrlab/instrlab/internal/report"
)

// runReport is "instrlab report DIR": every table rebuilt from the
// evidence of an earlier run.
func runReport(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("report", flag.ContinueOnError)
	fs.SetOutput(stderr)
	format := fs.String("format", "md", "output format: "+report.Formats.String()+" (summary: one line per configuration and client; a sweep: "+atlas.Formats.String()+", or site with -out)")
	out := fs.String("out", "", "with -format site (sweep directories only): write the atlas as a static site into this directory, evidence linked where it lies")
	profileOut := fs.String("profile-out", "", "also write a client profile (client@version.json, the format of check -profile) for each client in the run to this directory")
	profileRef := fs.String("profile-ref", "", "the profiles' evidence ref: where this run's summary is kept; {id} stands for client@version (default: DIR)")
	profileCommand := fs.String("profile-command", "", "the command that made the run, kept in each profile's evidence excerpt (PROFILE-OUT/evidence/client@version.json)")
	profileEarlier := fs.String("profile-earlier", "", "derive each profile from this earlier evidence excerpt too, when it exists ({id} stands for client@version): its runs join the run's, but for the rows and arms the run made again")
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: instrlab report [flags] DIR...\n\nRebuilds the results table of an \"instrlab run -out DIR\" from its evidence alone.\nSeveral DIRs (the shards of one run, -shard k/n) make one table, the same as one\ndirectory holding all their runs; sweep directories (instrlab sweep) merge into one atlas.\nWith -profile-out, also derives a client profile for each client@version in\nthe run from the same evidence (see docs/check.md, Profiles).\n\nFlags:\n")
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return usageError{Msg: "report: want an evidence directory (or several: the shards of one run or sweep)"}
	}
	if isSweep(fs.Args()) {
		return reportAtlas(fs.Args(), *format, *out, stdout)
	}
	if err := report.Formats.Check(*format); err != nil {
		return usageError{Msg: err.Error()}
	}
	if (*profileRef != "" || *profileCommand != "" || *profileEarlier != "") && *profileOut == "" {
		return usageError{Msg: "-profile-ref, -profile-command and -profile-earlier need -profile-out"}
	}
	m, results, warnings, err := report.Load(clients.New, fs.Args()...)
	if err != nil {
		return err
	}
	for _, w := range warnings {
		fmt.Fprintf(stderr, "warning: %s\n", w)
	}
	if *profileOut != "" {
		ref := *profileRef
		if ref == "" {
			ref = fs.Arg(0)
		}
		o := derive.Options{Ref: ref, Command: *profileCommand}
		if *profileEarlier != "" {
			o.Earlier = derive.EarlierIn(*profileEarlier)
		}
		if err := derive.Write(*profileOut, results, o, stderr); err != nil {
			return err
		}
	}
	return report.New(m, results, fs.Arg(0)).Write(stdout, *format)
}

// isSweep reports whether dirs are sweep outputs (they hold an atlas).
func isSweep(dirs []string) bool {
	for _, d := range dirs {
		if _, err := os.Stat(evidence.SweepDir(d).Atlas()); err != nil {
			return false
		}
	}
	return true
}

// reportAtlas merges the atlases of a sweep's shards and prints the
// whole, or writes it as a site into out.
func reportAtlas(dirs []string, format, out string, stdout io.Writer) error {
	if site := format == "site"; site != (out != "") {
		return usageError{Msg: "report: -format site and -out go together (the site is a directory)"}
	}
	a, err := atlas.ReadSweeps(dirs, out)
	if errors.Is(err, atlas.ErrMismatch) {
		return usageError{Msg: err.Error()}
	} else if err != nil {
		return err
	}
	if out != "" {
		return a.Site(out)
	}
	if err := atlas.Formats.Check(format); err != nil {
		return usageError{Msg: err.Error() + " (a sweep's atlas)"}
	}
	return a.Write(stdout, format)
}
