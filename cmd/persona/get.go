package main

import (
	"context"
	"fmt"
	"io"

	"github.com/instrlab/instrlab/cmd/persona/internal/coach"
)

// runGet prints the active persona: "persona get [-json]".
func runGet(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs, db := newFlagSet("get", "[-db PATH] [-json]", stderr)
	asJSON := fs.Bool("json", false, "print the persona as JSON")
	return withStore(ctx, fs, db, args, 0, func(st *coach.Store) error {
		p, err := st.Active(ctx)
		if err != nil {
			return err
		}
		if *asJSON {
			return writeJSON(stdout, p)
		}
		_, err = fmt.Fprintf(stdout, "%s\t%s\n", p.Name, p.Text)
		return err
	})
}
