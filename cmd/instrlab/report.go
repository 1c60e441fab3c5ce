package main

import (
	"context"
	"flag"
	"io"

	"github.com/instrlab/instrlab/internal/atlas"
	"github.com/instrlab/instrlab/internal/cli"
	"github.com/instrlab/instrlab/internal/client/clients"
	"github.com/instrlab/instrlab/internal/profiles/derive"
	"github.com/instrlab/instrlab/internal/report"
	"github.com/instrlab/instrlab/internal/report/reference"
)

// reportOptions are the flags of "instrlab report".
type reportOptions struct {
	format, out, profileOut, earlier, link string
	derive                                 derive.Options
	dirs                                   []string
}

func (o *reportOptions) flags(fs *flag.FlagSet) {
	fs.StringVar(&o.format, "format", "md", "output format: "+report.Formats.String()+" (text: one line per row and client; a sweep: "+atlas.Formats.String()+", or site with -out; reference with -out: the client reference)")
	fs.StringVar(&o.link, "link", "", "with -format tested: the https URL each version links to, where the run's evidence is kept (a workflow run's page); with -format site or reference: the https URL the working directory (the repository's files) is published under, where evidence is linked")
	fs.StringVar(&o.out, "out", "", "with -format site (sweep directories only): write the atlas as a static site into this directory, evidence linked where it lies, with the client reference (reference/) from the built-in profiles and every DIR's atlas; with -format reference: write the client reference (docs/reference) from the built-in profiles and the atlases DIR...")
	fs.StringVar(&o.profileOut, "profile-out", "", "also write a client profile (client@version.json, the format of check -profile) for each client in the run to this directory")
	fs.StringVar(&o.derive.Ref, "profile-ref", "", "the profiles' evidence ref: where this run's summary is kept; {id} stands for client@version (default: DIR)")
	fs.StringVar(&o.derive.Command, "profile-command", "", "the command that made the run, kept in each profile's evidence excerpt (PROFILE-OUT/evidence/client@version.json)")
	fs.StringVar(&o.earlier, "profile-earlier", "", "derive each profile from this earlier evidence excerpt too, when it exists ({id} stands for client@version): its runs join the run's, but for the rows and arms the run made again")
	fs.Usage = cli.Usage(fs, usage("report"))
}

// runReport is "instrlab report DIR...": every table rebuilt from the
// evidence of an earlier run, or a sweep's atlas.
func runReport(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var o reportOptions
	fs := flag.NewFlagSet("report", flag.ContinueOnError)
	fs.SetOutput(stderr)
	o.flags(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	o.dirs = fs.Args()
	if len(o.dirs) == 0 {
		return usageError{Msg: "report: want an evidence directory (or several: the shards of one run or sweep)"}
	}
	if o.format == "reference" {
		return reference.Generate(ctx, o.out, o.dirs, o.link)
	}
	if atlas.IsSweep(o.dirs) {
		return o.atlas(ctx, stdout)
	}
	if err := o.validate(); err != nil {
		return err
	}
	return o.run(ctx, stdout, stderr)
}

func (o *reportOptions) validate() error {
	if err := report.Formats.Check(o.format); err != nil {
		return usageError{Msg: err.Error()}
	}
	if (o.derive.Ref != "" || o.derive.Command != "" || o.earlier != "") && o.profileOut == "" {
		return usageError{Msg: "-profile-ref, -profile-command and -profile-earlier need -profile-out"}
	}
	o.derive.Display = clients.Display
	if o.derive.Ref == "" {
		o.derive.Ref = o.dirs[0]
	}
	return nil
}

// run prints the run's report, after writing its profiles (-profile-out).
func (o *reportOptions) run(ctx context.Context, stdout, stderr io.Writer) error {
	m, results, warnings, err := report.Load(ctx, clients.New, o.dirs...)
	if err != nil {
		return err
	}
	warn(stderr, warnings)
	if o.profileOut != "" {
		o.derive.Earlier = derive.EarlierIn(ctx, o.earlier)
		if err := derive.Write(o.profileOut, results, o.derive, stderr); err != nil {
			return err
		}
	}
	rep := report.New(m, results, o.dirs[0])
	rep.Link = o.link
	return rep.Write(stdout, o.format)
}

// atlas prints the merged atlas of sweep directories, or writes it as a
// site into -out.
func (o *reportOptions) atlas(ctx context.Context, stdout io.Writer) error {
	if site := o.format == "site"; site != (o.out != "") {
		return usageError{Msg: "report: -format site and -out go together (the site is a directory)"}
	}
	if o.out != "" {
		return reference.Site(ctx, o.out, o.dirs, o.link, clients.Display)
	}
	a, err := atlas.ReadSweeps(ctx, o.dirs, "")
	if err != nil {
		return err
	}
	if err := atlas.Formats.Check(o.format); err != nil {
		return usageError{Msg: err.Error() + " (a sweep's atlas)"}
	}
	return a.Write(stdout, o.format)
}
