package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/instrlab/instrlab/internal/client/clients"
	"github.com/instrlab/instrlab/internal/evidence"
	"github.com/instrlab/instrlab/internal/fakeapi"
	"github.com/instrlab/instrlab/internal/matrix"
	"github.com/instrlab/instrlab/internal/matrix/runner"
	"github.com/instrlab/instrlab/internal/report"
)

// runRun is "instrlab run": the matrix against real clients, offline
// unless -live, with evidence and a results table.
func runRun(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var clientFlags, rowFlags listFlag
	fs.Var(&clientFlags, "client", "client to run, as name@version, or all for every client at its pinned version (repeatable; default "+clients.Default.String()+")")
	matrixPath := fs.String("matrix", "", "matrix file (JSON, see docs/matrix.md), or a built-in matrix: seed or cross; default: seed when only Claude Code runs, else cross")
	fs.Var(&rowFlags, "row", "run only this row of the matrix (repeatable)")
	armsFlag := fs.String("arms", "", "run every row in these arms of each client: default, all, or arm names separated by commas (docs/clients.md lists each client's arms; default: the matrix's arms, else each client's default arm)")
	repeats := fs.Int("repeats", 0, "override every row's number of repeats")
	out := fs.String("out", "", "keep all evidence and the full tables (table.md, table.html, results.json, results.csv) in this directory (default: a temporary directory, removed)")
	jobs := fs.Int("j", 2, "runs at once")
	shard := fs.String("shard", "", "run only part k of n of the planned runs, as in 2/4, for several machines (merge their -out directories with instrlab report DIR...)")
	resume := fs.Bool("resume", false, "skip runs that finished ok in -out")
	timeout := fs.Duration("timeout", 2*time.Minute, "time limit of one client run")
	format := fs.String("format", "summary", "on stdout: "+report.Formats.String()+" (summary: one line per configuration and client; the others: the full table)")
	labBin := fs.String("lab", "", "instrlab executable the clients start as the lab server (default: this one)")
	netns := fs.String("netns", "auto", "run each client in a loopback-only network namespace with a resolver that logs the outside names it asks for: auto (when root), on or off")
	live := fs.Bool("live", false, "forward to the real Anthropic API with $ANTHROPIC_API_KEY (costs money; prints the maximum first)")
	upstream := fs.String("live-upstream", "https://api.anthropic.com", "API that -live forwards to")
	maxIn := fs.Int("live-max-input-tokens", 60000, "input tokens per request assumed by the -live cost bound")
	maxOut := fs.Int("live-max-output-tokens", 4000, "output tokens per request assumed by the -live cost bound")
	price := fs.String("live-price", "15/75", "USD per million input/output tokens for the -live cost bound")
	serverFlag := fs.String("server", "", "run your own server instead of the lab, behind the recording proxy: -server -- CMD [ARGS] (the rest of the line), or the NAME of a server in -config; default clients: every pinned client")
	hold := fs.Duration("hold", 0, "with -server or -config: also run each stdio server with its first reply held this long by the recording proxy, as a server slow to start (does the client wait for it?)")
	configPath := fs.String("config", "", "run the stdio servers of this MCP config (Claude Code's .mcp.json format), or the one -server names")
	baseline := fs.String("baseline", "", "after the run, compare it with this earlier run (evidence directory or results.json) as instrlab diff does; exit 1 when something changed")
	var diffOpts diffOptions
	diffOpts.register(fs)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: instrlab run [flags]\n\nRuns a matrix of lab configurations against MCP clients, offline against a fake model API,\nkeeps the evidence of every run and prints what reached the model.\n\nFlags:\n")
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	servers, err := parseUserServers(*serverFlag, *configPath, fs.Args())
	if err != nil {
		return err
	}
	if servers == nil && fs.NArg() > 0 {
		return usageError{Msg: fmt.Sprintf("run: unexpected argument %q", fs.Arg(0))}
	}
	switch {
	case servers != nil && *matrixPath != "":
		return usageError{Msg: "-matrix and -server/-config are exclusive: a user's server runs its own rows"}
	case *hold < 0:
		return usageError{Msg: "-hold must not be negative"}
	case *hold > 0 && servers == nil:
		return usageError{Msg: "-hold needs -server or -config: it holds your own server's first reply"}
	case *jobs < 1:
		return usageError{Msg: "-j must be at least 1"}
	case *resume && *out == "":
		return usageError{Msg: "-resume needs -out"}
	case *timeout <= 0:
		return usageError{Msg: "-timeout must be positive"}
	case *repeats < 0:
		return usageError{Msg: "-repeats must be at least 1"}
	}
	if err := report.Formats.Check(*format); err != nil {
		return usageError{Msg: err.Error()}
	}
	if err := diffOpts.check(); err != nil {
		return err
	}
	var base *report.Report
	if *baseline != "" {
		b, warnings, err := report.Open(clients.New, *baseline)
		if err != nil {
			return usageError{Msg: "-baseline: " + err.Error()}
		}
		for _, w := range warnings {
			fmt.Fprintf(stderr, "warning: %s\n", w)
		}
		base = b
	}
	var priceIn, priceOut float64
	if _, err := fmt.Sscanf(*price, "%g/%g", &priceIn, &priceOut); err != nil {
		return usageError{Msg: fmt.Sprintf("-live-price %q: want IN/OUT in USD per million tokens, as in 15/75", *price)}
	}
	if len(clientFlags) == 0 {
		clientFlags = listFlag{clients.Default.String()}
		if servers != nil {
			clientFlags = listFlag{clients.All}
		}
	}
	cs, err := newClients(clientFlags)
	if err != nil {
		return err
	}
	m := matrix.For(cs, clients.Default)
	if servers != nil {
		m = servers.matrix(*hold)
	}
	if bm, ok := matrix.Builtin(*matrixPath); ok {
		m = bm
	} else if *matrixPath != "" {
		mm, err := matrix.Load(*matrixPath)
		if err != nil {
			return usageError{Msg: "-matrix: " + err.Error()}
		}
		m = mm
	}
	if err := m.Select(rowFlags, *repeats); err != nil {
		return usageError{Msg: "-row " + err.Error()}
	}
	if *labBin == "" {
		exe, err := os.Executable()
		if err != nil {
			return fmt.Errorf("finding this executable for the lab server: %w", err)
		}
		*labBin = exe
	}
	sh, err := matrix.ParseShard(*shard)
	if err != nil {
		return usageError{Msg: err.Error()}
	}
	arms, err := m.PickArms(cs, splitList(*armsFlag))
	if err != nil {
		return usageError{Msg: err.Error()}
	}
	r := &runner.Runner{Clients: cs, Matrix: m, Arms: arms, Shard: sh, Jobs: *jobs, Resume: *resume, Timeout: *timeout, Lab: *labBin, Progress: stderr}
	if servers != nil {
		tmp, err := runner.TempDir(runner.TempServers)
		if err != nil {
			return fmt.Errorf("creating a directory for the server commands: %w", err)
		}
		defer os.RemoveAll(tmp)
		if r.Servers, err = servers.write(tmp); err != nil {
			return err
		}
		r.HTTPServers = servers.http
	}
	if r.Netns, err = useNetns(*netns, *live, stderr); err != nil {
		return err
	}
	if r.Netns && servers != nil && len(servers.http) > 0 {
		// The client must reach the recording proxy, and the proxy the
		// user's server, on this machine's loopback.
		fmt.Fprintln(stderr, "note: clients of an HTTP server run outside the network namespace")
		r.Netns = false
	}
	if *live {
		key := os.Getenv("ANTHROPIC_API_KEY")
		if key == "" {
			return usageError{Msg: "-live needs ANTHROPIC_API_KEY in the environment"}
		}
		n := m.PlannedRequests(cs)
		cost := float64(n) * (float64(*maxIn)*priceIn + float64(*maxOut)*priceOut) / 1e6
		fmt.Fprintf(stderr, "live: up to %d requests to %s, at most %d input and %d output tokens each at $%g/$%g per million: at most $%.2f\n",
			n, *upstream, *maxIn, *maxOut, priceIn, priceOut, cost)
		r.Upstream = &fakeapi.Upstream{URL: *upstream, Key: key}
	}
	dir := *out
	if dir == "" {
		tmp, err := runner.TempDir(runner.TempRun)
		if err != nil {
			return fmt.Errorf("creating a temporary evidence dir: %w", err)
		}
		defer os.RemoveAll(tmp)
		dir = tmp
	}
	r.Out = dir
	files := evidence.OutDir(dir)
	// A resume keeps the earlier run's matrix, which may have more rows
	// than this one runs, and reports on all of its evidence.
	var earlier *matrix.Matrix
	if _, err := os.Stat(files.Matrix()); err == nil {
		if !*resume {
			return usageError{Msg: fmt.Sprintf("-out %s holds an earlier run: add -resume to finish it, or choose another -out", dir)}
		}
		if earlier, err = matrix.Load(files.Matrix()); err != nil {
			return usageError{Msg: "-resume: the earlier run's matrix: " + err.Error()}
		}
		if err := m.Within(earlier); err != nil {
			return usageError{Msg: "-resume: " + err.Error()}
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("creating %s: %w", dir, err)
	}
	if earlier == nil {
		if err := m.Save(files.Matrix()); err != nil {
			return err
		}
	}
	before := selfCPU()
	results, st, runErr := r.Run(ctx)
	var diffErr error
	cpu := selfCPU() - before
	tm := m
	if earlier != nil {
		var warnings []string
		if tm, results, warnings, err = report.Resumed(clients.New, dir, m, results); err != nil {
			return err
		}
		for _, w := range warnings {
			fmt.Fprintf(stderr, "warning: %s\n", w)
		}
	}
	if len(results) > 0 {
		rep := report.New(tm, results, dir)
		if *out != "" {
			if err := rep.WriteFiles(dir); err != nil {
				return err
			}
		}
		if err := rep.Write(stdout, *format); err != nil {
			return err
		}
		if base != nil {
			fmt.Fprintln(stdout)
			diffErr = printDiff(stdout, base, rep, *baseline, "this run", diffOpts)
		}
	}
	if st.Wall > 0 && *out != "" {
		if err := st.Save(files.Stats(), cpu); err != nil {
			return err
		}
	}
	if st.Wall > 0 {
		fmt.Fprintln(stderr, st.Line(cpu))
	}
	if *out != "" {
		fmt.Fprintf(stderr, "evidence in %s\n", dir)
	}
	if runErr != nil {
		return runErr
	}
	if st.Failed > 0 {
		return exitError{exitFailure, fmt.Errorf("%d of %d runs failed", st.Failed, st.Runs)}
	}
	return diffErr
}
