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
		return exitError{code, err}
	}
	if code != 0 {
		return exitError{code, fmt.Errorf("jail: the client exited with status %d", code)}
	}
	return nil
}

// useNetns decides -netns: auto isolates when the machine allows it, on
// insists, off never isolates. Live runs need the network.
func useNetns(mode string, live bool) (bool, error) {
	switch mode {
	case "off":
		return false, nil
	case "auto":
		return !live && netjail.Supported() == nil, nil
	case "on":
		if live {
			return false, usageError{"-netns on conflicts with -live (the fake must reach the real API)"}
		}
		if err := netjail.Supported(); err != nil {
			return false, fmt.Errorf("-netns on: %w", err)
		}
		return true, nil
	}
	return false, usageError{fmt.Sprintf("-netns %q: want auto, on or off", mode)}
}
