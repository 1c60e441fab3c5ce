package main

import (
	"context"
	"fmt"
	"io"

	"github.com/instrlab/instrlab/internal/netjail"
)

// runJail is "instrlab jail", which "instrlab run -netns" starts inside new
// namespaces around each client (see internal/netjail); it is not meant to
// be run by hand.
func runJail(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	code, err := netjail.Main(args, stderr)
	if err != nil {
		return exitError{Code: code, Err: err}
	}
	if code != 0 {
		return exitError{Code: code, Err: fmt.Errorf("jail: the client exited with status %d", code)}
	}
	return nil
}
