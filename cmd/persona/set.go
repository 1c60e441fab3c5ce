package main

import (
	"context"
	"fmt"
	"io"
)

// runSet makes a persona active: "persona set NAME".
func runSet(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs, db := newFlagSet("set", "[-db PATH] NAME", stderr)
	if err := parse(fs, args, 1); err != nil {
		return err
	}
	st, err := openStore(ctx, *db)
	if err != nil {
		return err
	}
	defer st.Close()
	name := fs.Arg(0)
	if err := st.SetActive(ctx, name); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "persona: %s is active; new connects get it\n", name)
	return nil
}
