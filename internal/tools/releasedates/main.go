// Command releasedates fills in the release date of every version in a
// committed atlas's timelines from npm's registry (npm view PACKAGE time),
// the dates instrlab sweep keeps for what it sweeps now, for the atlases
// swept before it did; then writes the atlas's files again (atlas.json,
// .md, .html), as TestCommittedAtlas holds them.
//
//	go run ./internal/tools/releasedates atlas atlas/budgets atlas/results atlas/surface
//
// Nothing else of an atlas changes: the dates are npm's, not a measurement.
// A client npm cannot list is an error naming it, and no file is written.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/instrlab/instrlab/internal/atlas"
	"github.com/instrlab/instrlab/internal/client/clients"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: releasedates ATLAS_DIR...")
		os.Exit(2)
	}
	for _, dir := range os.Args[1:] {
		if err := fill(ctx, dir, clients.Released); err != nil {
			fmt.Fprintf(os.Stderr, "releasedates: %v\n", err)
			os.Exit(1)
		}
	}
}

// fill reads dir's atlas.json, gives each timeline the release dates of
// its versions from released, and writes every format of the atlas again.
func fill(ctx context.Context, dir string, released func(ctx context.Context, client string) (map[string]string, error)) error {
	a, err := atlas.Read(ctx, filepath.Join(dir, "atlas.json"))
	if err != nil {
		return err
	}
	for i, tl := range a.Timelines {
		all, err := released(ctx, tl.Client)
		if err != nil {
			return fmt.Errorf("%s: %w", dir, err)
		}
		a.Timelines[i].Released = atlas.ReleasedOf(tl.Versions, all)
	}
	return a.Save(dir)
}
