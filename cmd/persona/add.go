package main

import (
	"context"
	"fmt"
	"io"

	"github.com/instrlab/instrlab/cmd/persona/internal/coach"
)

// runAdd adds or replaces a user-defined persona: "persona add NAME TEXT".
func runAdd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs, db := newFlagSet("add", "[-db PATH] [-focus TEXT] NAME TEXT", stderr)
	focus := fs.String("focus", "", "what todays_focus answers in this voice (default \""+coach.DefaultFocus+"\")")
	return withStore(ctx, fs, db, args, 2, func(st *coach.Store) error {
		p := coach.Persona{Name: fs.Arg(0), Text: fs.Arg(1), Focus: *focus}
		if err := st.Add(ctx, p); err != nil {
			return err
		}
		fmt.Fprintf(stderr, "persona: added %s; make it active with: persona set %s\n", p.Name, p.Name)
		return nil
	})
}
