package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/instrlab/instrlab/cmd/persona/internal/coach"
)

// openStore is the startup step of every entry point: it resolves the
// database path, creates its directory and the schema, and returns the
// store. Nothing touches the database before this runs.
func openStore(ctx context.Context, flagValue string) (*coach.Store, error) {
	path, err := dbPath(flagValue)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, fmt.Errorf("creating the database directory: %w", err)
	}
	st, err := coach.Open(path)
	if err != nil {
		return nil, err
	}
	if err := st.InitSchema(ctx); err != nil {
		st.Close()
		return nil, err
	}
	return st, nil
}
