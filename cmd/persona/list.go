package main

import (
	"context"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/instrlab/instrlab/cmd/persona/internal/coach"
)

// runList prints every persona, the active one marked: "persona list [-json]".
func runList(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs, db := newFlagSet("list", "[-db PATH] [-json]", stderr)
	asJSON := fs.Bool("json", false, "print the personas as JSON")
	return withStore(ctx, fs, db, args, 0, func(st *coach.Store) error {
		list, err := st.List(ctx)
		if err != nil {
			return err
		}
		active, err := st.Active(ctx)
		if err != nil {
			return err
		}
		if *asJSON {
			type entry struct {
				coach.Persona
				Active bool `json:"active"`
			}
			var out []entry
			for _, p := range list {
				out = append(out, entry{p, p.Name == active.Name})
			}
			return writeJSON(stdout, out)
		}
		tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
		for _, p := range list {
			mark, kind := " ", "user"
			if p.Name == active.Name {
				mark = "*"
			}
			if p.BuiltIn {
				kind = "built-in"
			}
			fmt.Fprintf(tw, "%s %s\t%s\t%s\n", mark, p.Name, kind, p.Text)
		}
		return tw.Flush()
	})
}
