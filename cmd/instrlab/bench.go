package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"strings"

	"github.com/instrlab/instrlab/internal/bench"
	"github.com/instrlab/instrlab/lab"
)

func runBench(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	spawns := fs.Int("spawns", 30, "startup measurements per server")
	rounds := fs.Int("rounds", 5, "throughput measurements per server (0: none)")
	requests := fs.Int("requests", 20000, "pipelined tools/list requests per throughput measurement")
	throughput := fs.String("throughput", "", "comma-separated names of the servers whose throughput to measure (default: all)")
	format := fs.String("format", "md", "output format: "+bench.Formats.String())
	check := fs.Bool("check", false, "exit 1 when a target is missed")
	writes := fs.String("writes", "each", "how pipelined requests are written: each (a write per request, as a client's SDK does) or one (all in one write)")
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), `Usage: instrlab bench [flags] [NAME=COMMAND ...]

Measures MCP servers over stdio, interleaved: the time from spawning each to
its initialize reply (median of -spawns), then the rate of -requests
pipelined tools/list (median of -rounds) and the peak memory of the process.
COMMAND is split at white space; an argument {log} is replaced by a fresh
file that the server must fill with a lab message log holding every request
and reply. The names lab, lablite (instrlab-lab), bare, bare1 and everything
are compared with the targets of the lab server, held by lab and by lablite.
Without arguments: lab="instrlab serve lab -log {log}".

Flags:
`)
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	switch {
	case *spawns < 1:
		return usageError{Msg: "bench: -spawns must be at least 1"}
	case *rounds < 0:
		return usageError{Msg: "bench: -rounds must not be negative"}
	case *requests < 1:
		return usageError{Msg: "bench: -requests must be at least 1"}
	case *writes != "each" && *writes != "one":
		return usageError{Msg: fmt.Sprintf("bench: -writes %q: want each or one", *writes)}
	case bench.Formats.Check(*format) != nil:
		return usageError{Msg: "bench: " + bench.Formats.Check(*format).Error()}
	}
	var contenders []bench.Contender
	for _, a := range fs.Args() {
		c, err := bench.ParseContender(a)
		if err != nil {
			return usageError{Msg: "bench: " + err.Error()}
		}
		if slices.ContainsFunc(contenders, func(d bench.Contender) bool { return d.Name == c.Name }) {
			return usageError{Msg: fmt.Sprintf("bench: two servers named %q", c.Name)}
		}
		contenders = append(contenders, c)
	}
	if len(contenders) == 0 {
		self, err := os.Executable()
		if err != nil {
			return err
		}
		contenders = []bench.Contender{{Name: bench.NameLab, Argv: slices.Concat([]string{self}, lab.Subcommand, lab.Args{Log: bench.LogPlaceholder}.Args())}}
	}
	var only []string
	if *throughput != "" {
		only = strings.Split(*throughput, ",")
		for _, n := range only {
			if !slices.ContainsFunc(contenders, func(c bench.Contender) bool { return c.Name == n }) {
				return usageError{Msg: fmt.Sprintf("bench: -throughput names %q, which is not a server", n)}
			}
		}
	}
	dir, err := os.MkdirTemp("", "instrlab-bench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)

	loadBefore := loadAverage()
	results, err := bench.Run(bench.Config{
		Contenders: contenders, Spawns: *spawns, Rounds: *rounds, Requests: *requests,
		Throughput: only, EachWrite: *writes == "each", Dir: dir, Progress: stderr,
	})
	if err != nil {
		return fmt.Errorf("bench: %w", err)
	}
	note := fmt.Sprintf("%d spawns per server, then %d rounds of %d pipelined tools/list (writes: %s), interleaved; %s/%s, %d CPUs, load average %s before, %s after.",
		*spawns, *rounds, *requests, *writes, runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), loadBefore, loadAverage())
	if err := bench.Write(stdout, *format, note, results); err != nil {
		return err
	}
	if *check {
		for _, t := range bench.Targets(results) {
			if !t.Met {
				return fmt.Errorf("bench: target missed: %s: %s", t.Goal, t.Measured)
			}
		}
	}
	return nil
}

// loadAverage is the one-minute load average, where the system tells it.
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if f := strings.Fields(string(b)); err == nil && len(f) > 0 {
		return f[0]
	}
	return "unknown"
}
