// Command instrlab-lab is the lab server alone: "instrlab-lab [flags]" is
// "instrlab serve lab [flags]", the same flags, replies and exit codes, in a
// binary that imports only the lab and the go-sdk, so that it starts as fast
// as a bare go-sdk server. Put it in your own client's MCP configuration.
//
// Usage:
//
//	instrlab-lab [-instr SPEC] [-eras legacy|modern|dual] [-log FILE] [-http ADDR] ...
//
// Run "instrlab-lab -h" for the flags.
package main

import (
	"context"
	"io"
	"os"

	"github.com/instrlab/instrlab/internal/cli"
	"github.com/instrlab/instrlab/internal/serve"
)

func main() { cli.Main("instrlab-lab", run) }

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	return serve.Lab(ctx, args, os.Stdin, stdout, stderr)
}
