package main

import (
	"context"
	"fmt"
	"io"
	"runtime/debug"
)

// version returns the version of the instrlab module and of the MCP Go SDK
// it was built with.
func version() (instrlab, sdk string) {
	instrlab, sdk = "(devel)", "unknown"
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return
	}
	if v := bi.Main.Version; v != "" {
		instrlab = v
	}
	for _, d := range bi.Deps {
		if d.Path == "github.com/modelcontextprotocol/go-sdk" {
			sdk = d.Version
		}
	}
	return
}

func runVersion(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 {
		if args[0] == "-h" || args[0] == "-help" {
			fmt.Fprintln(stdout, "Usage: instrlab version")
			return errHelp
		}
		return usageError{Msg: fmt.Sprintf("version: unexpected argument %q", args[0])}
	}
	v, sdk := version()
	fmt.Fprintf(stdout, "instrlab %s (MCP Go SDK %s)\n", v, sdk)
	return nil
}
