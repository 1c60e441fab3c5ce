// Command instrlab shows MCP server authors what happens to their server's
// instructions: what the server sends in each protocol era, what a client
// keeps, where it puts it, what it costs, and what the model finally sees.
//
// Usage:
//
//	instrlab <command> [flags] [args]
//
// Run "instrlab help" for the list of commands.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"
)

func main() {
	ctx, cancel := context.WithCancel(context.Background())
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	caught := make(chan os.Signal, 1)
	go func() {
		if s, ok := <-sigs; ok {
			caught <- s
			cancel()
		}
	}()
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	signal.Stop(sigs)
	code := exitCode(err, os.Stderr)
	select {
	case s := <-caught:
		dieBy(s)
	default:
	}
	os.Exit(code)
}

// dieBy ends the process by the signal s that stopped a command, once the
// command has cleaned up, so that whoever waits for it sees the signal and
// not a failure: a client that stops its servers with SIGTERM sees them
// terminated, and the proxy's log says "signal: terminated" rather than
// "exit status 1". Where a process cannot signal itself (Windows), main
// exits with the command's code instead.
func dieBy(s os.Signal) {
	signal.Reset(s)
	p, err := os.FindProcess(os.Getpid())
	if err != nil || p.Signal(s) != nil {
		return
	}
	time.Sleep(time.Second) // the signal arrives while this sleeps
}

// A command is one subcommand of instrlab.
type command struct {
	name    string
	summary string
	run     func(ctx context.Context, args []string, stdout, stderr io.Writer) error
}

// commands is the table of subcommands, in the order "help" lists them.
// It is filled in init to break the initialization cycle through help.
var commands []command

func init() {
	commands = []command{
		{"run", "run the experiment matrix against real MCP clients, offline, and print what reached the model", runRun},
		{"report", "rebuild the results table of a run from its evidence directory", runReport},
		{"diff", "compare two runs (evidence directories or results.json): what changed per configuration and client", runDiff},
		{"sweep", "probe every released version of a client and find where its handling of instructions changed", runSweep},
		{"check", "inspect an MCP server's instructions in both eras, as each client keeps them", runCheck},
		{"serve", "run an MCP server (serve lab: the instrumented lab server)", runServe},
		{"bench", "measure MCP servers over stdio: spawn to initialize, pipelined tools/list, memory", runBench},
		{"jail", "(used by run -netns) run a command with only loopback and a logging resolver", runJail},
		{"version", "print the version of instrlab and of the MCP Go SDK it is built on", runVersion},
		{"help", "print this help, or the help of one command", runHelp},
	}
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		printUsage(stderr)
		return usageError{"no command given"}
	}
	name, rest := args[0], args[1:]
	switch name {
	case "-h", "-help", "--help":
		printUsage(stdout)
		return nil
	}
	for _, c := range commands {
		if c.name == name {
			return c.run(ctx, rest, stdout, stderr)
		}
	}
	return usageError{fmt.Sprintf("unknown command %q (run \"instrlab help\")", name)}
}

func printUsage(w io.Writer) {
	fmt.Fprintf(w, "instrlab: what happens to an MCP server's instructions\n\nUsage:\n\n\tinstrlab <command> [flags] [args]\n\nCommands:\n\n")
	for _, c := range commands {
		fmt.Fprintf(w, "\t%-10s %s\n", c.name, c.summary)
	}
	fmt.Fprintf(w, "\nRun \"instrlab help <command>\" or \"instrlab <command> -h\" for a command's flags.\n")
}

func runHelp(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		printUsage(stdout)
		return nil
	}
	for _, c := range commands {
		if c.name == args[0] && c.name != "help" {
			err := c.run(ctx, append(args[1:], "-h"), stdout, stderr)
			if errors.Is(err, errHelp) {
				return nil
			}
			return err
		}
	}
	return usageError{fmt.Sprintf("help: unknown command %q", args[0])}
}
