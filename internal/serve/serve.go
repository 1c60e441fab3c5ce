// Package serve runs the servers of "instrlab serve": the instrumented lab
// (serve lab) and the recording proxy (serve proxy). It owns their command
// lines, parsed into lab.Args, and serves them over stdio or Streamable
// HTTP. cmd/instrlab calls Main; cmd/instrlab-lab calls Lab, the lab alone
// in a binary that imports nothing else of instrlab and so starts as fast as
// a bare go-sdk server.
package serve

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/instrlab/instrlab/internal/cli"
)

// Command is "instrlab serve" as a command of a program (cli.Command):
// Main with the process's stdin.
func Command(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	return Main(ctx, args, os.Stdin, stdout, stderr)
}

// Main runs "instrlab serve" with args, the server's name and its flags
// ("lab ..." or "proxy ..."). The server reads MCP messages from stdin and
// writes them to stdout; notices and the usage go to stderr.
func Main(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] == "-h" || args[0] == "-help" || args[0] == "--help" {
		fmt.Fprintf(stdout, "Usage: instrlab serve lab|proxy [flags]\n\nServers:\n\n\tlab\tthe instrumented lab server (instrlab serve lab -h)\n\tproxy\ta recording proxy in front of any server (instrlab serve proxy -h)\n")
		if len(args) == 0 {
			return cli.UsageError{Msg: "serve: name a server: lab or proxy"}
		}
		return cli.ErrHelp
	}
	switch args[0] {
	case "lab":
		return serveLab(ctx, cmdline{"instrlab", "instrlab serve lab", "serve lab: "}, args[1:], stdin, stdout, stderr)
	case "proxy":
		return serveProxy(ctx, args[1:], stdin, stdout, stderr)
	}
	return cli.UsageError{Msg: fmt.Sprintf("serve: unknown server %q (want lab or proxy)", args[0])}
}

// Lab runs the lab server as the program instrlab-lab: args are the flags
// of "instrlab serve lab", and its usage and errors name instrlab-lab.
func Lab(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	return serveLab(ctx, cmdline{"instrlab-lab", "instrlab-lab", ""}, args, stdin, stdout, stderr)
}

// A cmdline says how a server's command line is called where it is run.
type cmdline struct {
	prog   string // the program, before notices on stderr: "instrlab"
	usage  string // the command as typed: "instrlab serve lab"
	prefix string // before the errors it returns: "serve lab: "
}
