// Command persona is an MCP server whose instructions carry the active coach
// persona, re-read from a SQLite settings file on every connect, so a change
// made with "persona set" reaches the next connect with no restart. It is
// the Go version of the seed post's server, built on the live package.
//
// Usage:
//
//	persona serve [-http ADDR] [-stateful] [-deadline D] [-budget N [-trim]]
//	persona set NAME
//	persona get [-json]
//	persona list [-json]
//	persona add [-focus TEXT] NAME TEXT
//
// Every command takes -db PATH; the default is $PERSONA_DB, else
// persona.db in the user's config directory under instrlab/.
package main

import (
	"context"
	"fmt"
	"io"

	"github.com/instrlab/instrlab/internal/cli"
)

func main() { cli.Main("persona", run) }

const usage = `usage: persona <command> [flags] [args]

commands:
  serve [-http ADDR] [-stateful] [-deadline D] [-budget N [-trim]]
                          serve MCP on stdio, or Streamable HTTP at http://ADDR/mcp
  set NAME                make NAME the active persona
  get [-json]             print the active persona
  list [-json]            list the personas, the active one marked *
  add [-focus TEXT] NAME TEXT
                          add or replace a user-defined persona

Every command takes -db PATH (default $PERSONA_DB, else persona.db in the
user config directory under instrlab/).
`

// run runs the persona command line args, writing data to stdout and
// progress to stderr. "serve" reads MCP messages from os.Stdin.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return usageError{Msg: "missing command"}
	}
	commands := map[string]func(context.Context, []string, io.Writer, io.Writer) error{
		"serve": runServe,
		"set":   runSet,
		"get":   runGet,
		"list":  runList,
		"add":   runAdd,
	}
	cmd, ok := commands[args[0]]
	if !ok {
		if args[0] == "-h" || args[0] == "-help" || args[0] == "--help" || args[0] == "help" {
			fmt.Fprint(stdout, usage)
			return nil
		}
		fmt.Fprint(stderr, usage)
		return usageError{Msg: fmt.Sprintf("unknown command %q", args[0])}
	}
	return cmd(ctx, args[1:], stdout, stderr)
}

// usageError is a mistake in the command line; it exits 2.
type usageError = cli.UsageError
