// Command provision installs the pinned version of every client instrlab
// knows (internal/client/pins) into the user's cache, as a run would on
// first use. CI (.ci/run) starts it in the background before go vet: the
// installs are mostly network and disk, so they overlap the compiles
// instead of holding up the end-to-end tests, which then find every client
// installed.
//
//	go run ./internal/tools/provision
//
// It installs the clients one after the other (npm is a heavy process; one
// at a time leaves the cores to the compiles), tries every client even when
// one fails, and exits 1 naming each that failed.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/instrlab/instrlab/internal/client"
	"github.com/instrlab/instrlab/internal/client/clients"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := provision(ctx, clients.Names(), clients.New, os.Stdout); err != nil {
		fmt.Fprintf(os.Stderr, "provision: %v\n", err)
		os.Exit(1)
	}
}

// provision provisions each named client at its pin, in order, and returns
// an error naming every one that failed.
func provision(ctx context.Context, names []string, newClient func(spec string) (client.Client, error), progress io.Writer) error {
	var failed []string
	for _, name := range names {
		start := time.Now()
		c, err := newClient(name)
		if err == nil {
			err = c.Provision(ctx, progress)
		}
		if err != nil {
			failed = append(failed, fmt.Sprintf("%s: %v", name, err))
			continue
		}
		fmt.Fprintf(progress, "%s ready (%.1fs)\n", name, time.Since(start).Seconds())
	}
	if len(failed) > 0 {
		return fmt.Errorf("%d of %d clients not installed:\n%s", len(failed), len(names), strings.Join(failed, "\n"))
	}
	return nil
}
