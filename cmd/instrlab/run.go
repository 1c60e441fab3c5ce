package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/instrlab/instrlab/internal/budget"
	"github.com/instrlab/instrlab/internal/cli"
	"github.com/instrlab/instrlab/internal/client"
	"github.com/instrlab/instrlab/internal/client/clients"
	"github.com/instrlab/instrlab/internal/fakeapi"
	"github.com/instrlab/instrlab/internal/matrix"
	"github.com/instrlab/instrlab/internal/matrix/analyze"
	"github.com/instrlab/instrlab/internal/matrix/runner"
	"github.com/instrlab/instrlab/internal/netjail"
	"github.com/instrlab/instrlab/internal/report"
)

// runOptions are the flags of "instrlab run", and what validate makes of
// them.
type runOptions struct {
	clients, rows, calls                 listFlag
	matrix, arms, out, shard, format     string
	lab, netns, server, config, baseline string
	upstream, price                      string
	repeats, jobs, repeatSensitive       int
	resume, live                         bool
	timeout, hold, loadWait              time.Duration
	bound                                fakeapi.Bound
	diff                                 report.DiffOptions

	servers *runner.UserServers
	base    *report.Report
	mode    netjail.Mode
	sh      matrix.Shard
}

func (o *runOptions) flags(fs *flag.FlagSet) {
	fs.Var(&o.clients, "client", "client to run, as name@version or name@newest (the newest release npm lists), all (every client at its pinned version) or newest (every client at its newest release) (repeatable; default "+clients.Default.String()+")")
	fs.StringVar(&o.matrix, "matrix", "", "matrix file (JSON, see docs/matrix.md), or a built-in matrix: seed, cross, surface (docs/surface.md), sessions (docs/sessions.md) or protocol (docs/protocol.md); default: seed when only Claude Code runs, else cross")
	fs.Var(&o.rows, "row", "run only this row of the matrix (repeatable)")
	fs.StringVar(&o.arms, "arms", "", "run every row in these arms of each client: default, all, or arm names separated by commas (docs/clients.md lists each client's arms; default: the matrix's arms, else each client's default arm)")
	fs.IntVar(&o.repeats, "repeats", 0, "override every row's number of repeats")
	fs.DurationVar(&o.loadWait, "load-wait", 0, "when the machine is too loaded for servers to start well under the smallest wait budget even one run at a time, wait up to this long for the load to fall before each run")
	fs.IntVar(&o.repeatSensitive, "repeat-sensitive", 0, "run a row whose result is timing-sensitive (the server's start raced the first request) again until it has this many runs, and report rates")
	fs.StringVar(&o.out, "out", "", "keep all evidence and the full tables (table.md, table.html, results.json, results.csv) in this directory (default: a temporary directory, removed)")
	fs.IntVar(&o.jobs, "j", 2, "runs at once")
	fs.StringVar(&o.shard, "shard", "", "run only part k of n of the planned runs, as in 2/4, for several machines (merge their -out directories with instrlab report DIR...)")
	fs.BoolVar(&o.resume, "resume", false, "skip runs that finished ok in -out")
	fs.DurationVar(&o.timeout, "timeout", 2*time.Minute, "time limit of one client run")
	fs.StringVar(&o.format, "format", "text", "on stdout: "+report.Formats.String()+" (text: one line per row and client; the others: the full table)")
	fs.StringVar(&o.lab, "lab", "", "instrlab executable the clients start as the lab server (default: this one)")
	fs.StringVar(&o.netns, "netns", "auto", "run each client in a loopback-only network namespace with a resolver that logs the outside names it asks for: auto (when root), on or off")
	fs.BoolVar(&o.live, "live", false, "forward to the real Anthropic API with $ANTHROPIC_API_KEY (costs money; prints the maximum first)")
	fs.StringVar(&o.upstream, "live-upstream", "https://api.anthropic.com", "API that -live forwards to")
	fs.IntVar(&o.bound.MaxIn, "live-max-input-tokens", 60000, "input tokens per request assumed by the -live cost bound")
	fs.IntVar(&o.bound.MaxOut, "live-max-output-tokens", 4000, "output tokens per request assumed by the -live cost bound")
	fs.StringVar(&o.price, "live-price", "15/75", "USD per million input/output tokens for the -live cost bound")
	fs.StringVar(&o.server, "server", "", "run your own server instead of the lab, behind the recording proxy: -server -- CMD [ARGS] (the rest of the line), or the NAME of a server in -config; default clients: every pinned client")
	fs.DurationVar(&o.hold, "hold", 0, "with -server or -config: also run each stdio server with its first reply held this long by the recording proxy, as a server slow to start (does the client wait for it?)")
	fs.Var(&o.calls, "call", "with -server or -config: make every client call this tool of your server, as TOOL or TOOL={JSON input} (repeatable; all in one turn), and report what of its result reached the model (docs/surface.md)")
	fs.StringVar(&o.config, "config", "", "run the stdio servers of this MCP config (Claude Code's .mcp.json format), or the one -server names")
	fs.StringVar(&o.baseline, "baseline", "", "after the run, compare it with this earlier run (evidence directory or results.json) as instrlab diff does; exit 1 when something changed")
	diffFlags(fs, &o.diff)
}

// runRun is "instrlab run": the matrix against real clients, offline
// unless -live, with evidence and a results table.
func runRun(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var o runOptions
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.SetOutput(stderr)
	o.flags(fs)
	fs.Usage = cli.Usage(fs, usage("run"))
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := o.validate(ctx, fs.Args(), stderr); err != nil {
		return err
	}
	r, err := o.runner(ctx, stderr)
	if err != nil {
		return err
	}
	return o.run(ctx, r, stdout, stderr)
}

// validate checks the flags and reads what they name that can be wrong
// before any work starts: the user's servers, the baseline, the price.
func (o *runOptions) validate(ctx context.Context, rest []string, stderr io.Writer) error {
	var err error
	if o.servers, err = runner.ParseServers(o.server, o.config, rest); err != nil {
		return err
	}
	switch {
	case o.servers == nil && len(rest) > 0:
		return usageError{Msg: fmt.Sprintf("run: unexpected argument %q", rest[0])}
	case o.servers != nil && o.matrix != "":
		return usageError{Msg: "-matrix and -server/-config are exclusive: a user's server runs its own rows"}
	case o.hold < 0:
		return usageError{Msg: "-hold must not be negative"}
	case o.hold > 0 && o.servers == nil:
		return usageError{Msg: "-hold needs -server or -config: it holds your own server's first reply"}
	case len(o.calls) > 0 && o.servers == nil:
		return usageError{Msg: "-call needs -server or -config: it calls your own server's tools"}
	case o.resume && o.out == "":
		return usageError{Msg: "-resume needs -out"}
	}
	if err := runner.CheckLimits(o.jobs, o.repeats, o.repeatSensitive, o.timeout, o.loadWait); err != nil {
		return usageError{Msg: err.Error()}
	}
	if err := report.Formats.Check(o.format); err != nil {
		return usageError{Msg: err.Error()}
	}
	if err := o.diff.Validate(); err != nil {
		return usageError{Msg: err.Error()}
	}
	if o.mode, err = netjail.ParseMode(o.netns); err != nil {
		return usageError{Msg: err.Error()}
	}
	if o.mode == netjail.On && o.live {
		return usageError{Msg: "-netns on conflicts with -live (the fake must reach the real API)"}
	}
	if o.sh, err = matrix.ParseShard(o.shard); err != nil {
		return usageError{Msg: err.Error()}
	}
	if o.baseline != "" {
		b, warnings, err := report.Open(ctx, clients.New, o.baseline)
		if err != nil {
			return usageError{Msg: "-baseline: " + err.Error()}
		}
		warn(stderr, warnings)
		o.base = b
	}
	if err := o.bound.SetPrice(o.price); err != nil {
		return usageError{Msg: err.Error()}
	}
	return nil
}

// runner plans the run: the clients, the matrix and its rows, the arms.
func (o *runOptions) runner(ctx context.Context, progress io.Writer) (*runner.Runner, error) {
	if len(o.clients) == 0 {
		o.clients = listFlag{clients.Default.String()}
		if o.servers != nil {
			o.clients = listFlag{clients.All}
		}
	}
	cs, err := clients.NewList(ctx, o.clients, progress)
	if err != nil {
		return nil, usageError{Msg: "-client: " + err.Error()}
	}
	m, err := o.plan(ctx, cs)
	if err != nil {
		return nil, err
	}
	arms, err := m.PickArms(cs, splitList(o.arms))
	if err != nil {
		return nil, usageError{Msg: err.Error()}
	}
	return &runner.Runner{Clients: cs, Matrix: m, Arms: arms, Shard: o.sh, Jobs: o.jobs, Resume: o.resume,
		Timeout: o.timeout, Lab: o.lab, RepeatSensitive: o.repeatSensitive, Gate: budget.Gate(cs, o.jobs, o.loadWait, progress), Progress: progress}, nil
}

// plan is the matrix to run: -matrix, else the user's servers', else the
// default for the clients; with -row and -repeats applied.
func (o *runOptions) plan(ctx context.Context, cs []client.Client) (*matrix.Matrix, error) {
	m := matrix.For(cs, clients.Default)
	if o.servers != nil {
		m = o.servers.Matrix(o.hold)
		calls, err := matrix.ParseCalls(o.calls)
		if err != nil {
			return nil, usageError{Msg: "-call " + err.Error()}
		}
		m.Call(calls)
	}
	m, err := matrix.Named(ctx, o.matrix, m)
	if err != nil {
		return nil, usageError{Msg: "-matrix: " + err.Error()}
	}
	if err := m.Select(o.rows, o.repeats); err != nil {
		return nil, usageError{Msg: "-row " + err.Error()}
	}
	return m, nil
}

// run sets r up (the servers, the jail, -live, the output directory),
// runs it and reports.
func (o *runOptions) run(ctx context.Context, r *runner.Runner, stdout, stderr io.Writer) error {
	var err error
	if r.Netns, err = o.mode.Use(o.live, stderr); err != nil {
		return err
	}
	if o.servers != nil {
		cleanup, err := o.servers.Use(r)
		if err != nil {
			return err
		}
		defer cleanup()
	}
	if o.live {
		if err := r.Live(o.upstream, o.bound); err != nil {
			return err
		}
	}
	r.Out = o.out
	earlier, cleanup, err := r.Prepare(ctx)
	defer cleanup()
	if err != nil {
		return err
	}
	results, st, runErr := r.Run(ctx)
	diffErr, err := o.report(ctx, r, earlier, results, stdout, stderr)
	if err != nil {
		return err
	}
	if err := r.Account(st, o.out != ""); err != nil {
		return err
	}
	switch {
	case runErr != nil:
		return runErr
	case st.Failed > 0:
		return exitError{Code: exitFailure, Err: fmt.Errorf("%d of %d runs failed", st.Failed, st.Runs)}
	}
	return diffErr
}

// report prints the run's table (of all its evidence, when it resumed an
// earlier run), writes the tables to -out and compares with -baseline:
// diffErr is the comparison's exit.
func (o *runOptions) report(ctx context.Context, r *runner.Runner, earlier *matrix.Matrix, results []analyze.Result, stdout, stderr io.Writer) (diffErr, err error) {
	m := r.Matrix
	if earlier != nil {
		var warnings []string
		if m, results, warnings, err = report.Resumed(ctx, clients.New, r.Out, r.Matrix, results); err != nil {
			return nil, err
		}
		warn(stderr, warnings)
	}
	if len(results) == 0 {
		return nil, nil
	}
	results = o.servers.Redacted(results)
	rep := report.New(m, results, r.Out)
	if o.out != "" {
		if err := rep.WriteFiles(r.Out); err != nil {
			return nil, err
		}
	}
	if err := rep.Write(stdout, o.format); err != nil {
		return nil, err
	}
	if o.base == nil {
		return nil, nil
	}
	fmt.Fprintln(stdout)
	return report.WriteDiff(stdout, o.base, rep, o.baseline, "this run", o.diff), nil
}

// warn prints warnings on stderr.
func warn(stderr io.Writer, warnings []string) {
	for _, w := range warnings {
		fmt.Fprintf(stderr, "warning: %s\n", w)
	}
}
