// Command propose lists, for every pinned client (internal/client/pins),
// the releases npm serves that are newer than its pin, and proposes them to
// the atlas: each as a sweep target on a line of stdout (kilo@>=7.7.7),
// and as a Markdown table appended to -summary (the atlas workflow's job
// summary). Nothing on stdout means every pin is its client's newest
// release. The atlas workflow's watch job runs it, sweeps what it printed,
// and its merge job bumps the pins to the newest releases the sweep ran.
//
//	go run ./internal/client/pins/propose [-summary FILE] [-timeout DUR]
//
// Exit status 0; 1 when a client's versions could not be listed (npm
// missing, offline, no such package: named on stderr and in the summary,
// the other clients still printed); 2 usage.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/instrlab/instrlab/internal/cli"
	"github.com/instrlab/instrlab/internal/client/clients"
	"github.com/instrlab/instrlab/internal/client/pins"
)

func main() { cli.Main("propose", run) }

type options struct {
	summary string
	timeout time.Duration
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var o options
	fs := flag.NewFlagSet("propose", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&o.summary, "summary", "", "append the proposal in Markdown to this file (as $GITHUB_STEP_SUMMARY)")
	fs.DurationVar(&o.timeout, "timeout", 5*time.Minute, "time limit of all the registry look-ups")
	if err := cli.ParseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return cli.UsageError{Msg: fmt.Sprintf("unexpected argument %q", fs.Arg(0))}
	}
	if o.timeout <= 0 {
		return cli.UsageError{Msg: "-timeout must be positive"}
	}
	return o.run(ctx, stdout)
}

// run lists the newer releases, prints the targets and writes the summary;
// a listing error is returned after both.
func (o options) run(ctx context.Context, stdout io.Writer) error {
	ctx, cancel := context.WithTimeout(ctx, o.timeout)
	defer cancel()
	all := pins.All()
	ns, listErr := pins.ListNewer(ctx, all, clients.Versions)
	for _, n := range ns {
		if n.Err == nil {
			fmt.Fprintln(stdout, n.Target())
		}
	}
	if o.summary != "" {
		f, err := os.OpenFile(o.summary, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
		if err != nil {
			return fmt.Errorf("opening the summary: %w", err)
		}
		err = pins.Summary(f, ns, len(all))
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return fmt.Errorf("writing the summary %s: %w", o.summary, err)
		}
	}
	return listErr
}
