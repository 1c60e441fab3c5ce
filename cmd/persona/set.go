package main

import (
	"context"
	"fmt"
	"io"

	"github.com/instrlab/instrlab/cmd/persona/internal/coach"
)

// runSet makes a persona active: "persona set NAME".
func runSet(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs, db := newFlagSet("set", "[-db PATH] NAME", stderr)
	return withStore(ctx, fs, db, args, 1, func(st *coach.Store) error {
		name := fs.Arg(0)
		if err := st.SetActive(ctx, name); err != nil {
			return err
		}
		fmt.Fprintf(stderr, "persona: %s is active; new connects get it\n", name)
		return nil
	})
}
