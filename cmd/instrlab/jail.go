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
// insists, off never isolates. Live runs need the network. When auto
// cannot isolate (not Linux, not root), it says so on stderr.
func useNetns(mode string, live bool, stderr io.Writer) (bool, error) {
	use, note, err := decideNetns(mode, live, netjail.Supported())
	if note != "" {
		fmt.Fprintln(stderr, note)
	}
	return use, err
}

// decideNetns is useNetns given what netjail.Supported returned here.
func decideNetns(mode string, live bool, supported error) (use bool, note string, err error) {
	switch mode {
	case "off":
		return false, "", nil
	case "auto":
		if live {
			return false, "", nil
		}
		if supported != nil {
			return false, fmt.Sprintf("run: runs are not network-isolated (%v); the table's \"outside names asked\" row says \"not isolated\"", supported), nil
		}
		return true, "", nil
	case "on":
		if live {
			return false, "", usageError{Msg: "-netns on conflicts with -live (the fake must reach the real API)"}
		}
		if supported != nil {
			return false, "", fmt.Errorf("-netns on: %w", supported)
		}
		return true, "", nil
	}
	return false, "", usageError{Msg: fmt.Sprintf("-netns %q: want auto, on or off", mode)}
}
