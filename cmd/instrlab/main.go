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

	"github.com/instrlab/instrlab/internal/cli"
)

func main() { cli.Main("instrlab", run) }

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
		{"budget", "measure a client's budgets as numbers (how long it waits for a server), by bisection", runBudget},
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
		return usageError{Msg: "no command given"}
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
	return usageError{Msg: fmt.Sprintf("unknown command %q (run \"instrlab help\")", name)}
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
	return usageError{Msg: fmt.Sprintf("help: unknown command %q", args[0])}
}
