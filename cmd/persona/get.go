package main

import (
	"context"
	"fmt"
	"io"
)

// runGet prints the active persona: "persona get [-json]".
func runGet(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs, db := newFlagSet("get", "[-db PATH] [-json]", stderr)
	asJSON := fs.Bool("json", false, "print the persona as JSON")
	if err := parse(fs, args, 0); err != nil {
		return err
	}
	st, err := openStore(ctx, *db)
	if err != nil {
		return err
	}
	defer st.Close()
	p, err := st.Active(ctx)
	if err != nil {
		return err
	}
	if *asJSON {
		return writeJSON(stdout, p)
	}
	_, err = fmt.Fprintf(stdout, "%s\t%s\n", p.Name, p.Text)
	return err
}
