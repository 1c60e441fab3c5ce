package main

import (
	"context"
	"flag"
	"io"

	"github.com/instrlab/instrlab/internal/bench"
	"github.com/instrlab/instrlab/internal/cli"
)

// runBench is "instrlab bench"; internal/bench owns the work.
func runBench(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var c bench.Command
	fs.IntVar(&c.Spawns, "spawns", 30, "startup measurements per server")
	fs.IntVar(&c.Rounds, "rounds", 5, "throughput measurements per server (0: none)")
	fs.IntVar(&c.Requests, "requests", 20000, "pipelined tools/list requests per throughput measurement")
	fs.StringVar(&c.Throughput, "throughput", "", "comma-separated names of the servers whose throughput to measure (default: all)")
	fs.StringVar(&c.Format, "format", "md", "output format: "+bench.Formats.String())
	fs.BoolVar(&c.Check, "check", false, "exit 1 when a target is missed")
	fs.StringVar(&c.Writes, "writes", "each", "how pipelined requests are written: each (a write per request, as a client's SDK does) or one (all in one write)")
	fs.Usage = cli.Usage(fs, usage("bench"))
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	c.Args = fs.Args()
	if err := c.Validate(); err != nil {
		return usageError{Msg: "bench: " + err.Error()}
	}
	return c.Run(stdout, stderr)
}
