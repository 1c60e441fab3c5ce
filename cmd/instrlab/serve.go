package main

import (
	"context"
	"io"
	"os"

	"github.com/instrlab/instrlab/internal/serve"
)

// runServe runs "instrlab serve lab|proxy"; internal/serve owns both.
func runServe(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	return serve.Main(ctx, args, os.Stdin, stdout, stderr)
}
