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
	"io"

	"github.com/instrlab/instrlab/internal/cli"
	"github.com/instrlab/instrlab/internal/profiles/assess"
	"github.com/instrlab/instrlab/internal/serve"
)

func main() { cli.Main("instrlab", run) }

// program is instrlab's table of commands, in the order "help" lists them.
var program = cli.Program{Name: "instrlab", Title: "what happens to an MCP server's instructions", Commands: []cli.Command{
	{Name: "run", Summary: "run the experiment matrix against real MCP clients, offline, and print what reached the model", Run: runRun},
	{Name: "report", Summary: "rebuild the results table of a run from its evidence directory", Run: runReport},
	{Name: "diff", Summary: "compare two runs (evidence directories or results.json): what changed per row and client", Run: runDiff},
	{Name: "sweep", Summary: "probe every released version of a client and find where its handling of instructions changed", Run: runSweep},
	{Name: "budget", Summary: "measure a client's budgets as numbers (how long it waits for a server), by bisection", Run: runBudget},
	{Name: "check", Summary: "inspect an MCP server's instructions in both eras, as each client keeps them", Run: runCheck},
	{Name: "serve", Summary: "run an MCP server (serve lab: the instrumented lab server)", Run: serve.Command},
	{Name: "bench", Summary: "measure MCP servers over stdio: spawn to initialize, pipelined tools/list, memory", Run: runBench},
	{Name: "jail", Summary: "(used by run -netns) run a command with only loopback and a logging resolver", Run: runJail},
	{Name: "version", Summary: "print the version of instrlab and of the MCP Go SDK it is built on", Run: cli.VersionCommand("instrlab")},
}, Topics: []cli.Topic{
	{Name: "finding", Summary: "what a finding of check means, its severity and its fix (help finding CODE)", Help: assess.HelpTopic},
}}

// run is instrlab with its command line: tests call it as main does.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	return program.Run(ctx, args, stdout, stderr)
}
