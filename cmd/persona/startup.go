package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sync/atomic"

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

// withStore is the start and end of every subcommand that reads or edits
// the settings: it parses args into fs, which takes nargs positional
// arguments, opens the store the -db flag db names (openStore), runs do
// with it and closes it.
func withStore(ctx context.Context, fs *flag.FlagSet, db *string, args []string, nargs int, do func(*coach.Store) error) error {
	if err := parse(fs, args, nargs); err != nil {
		return err
	}
	st, err := openStore(ctx, *db)
	if err != nil {
		return err
	}
	defer st.Close()
	return do(st)
}

// openStoreToServe is openStore for the server, which fails open: a
// database that cannot be used at startup (a directory, corrupt, truncated,
// locked) is reported in the returned error beside a store, and the server
// serves all the same; each connect then gets the fallback instructions
// until the database is usable again. Only a path that cannot be found at
// all returns no store.
func openStoreToServe(ctx context.Context, flagValue string) (*schemaStore, error) {
	path, err := dbPath(flagValue)
	if err != nil {
		return nil, err
	}
	os.MkdirAll(filepath.Dir(path), 0o755) // a failure shows in InitSchema
	st, err := coach.Open(path)
	if err != nil {
		return nil, err
	}
	s := &schemaStore{Store: st}
	return s, s.ensureSchema(ctx)
}

// A schemaStore creates its schema on first use if startup could not.
type schemaStore struct {
	*coach.Store
	ready atomic.Bool
}

func (s *schemaStore) ensureSchema(ctx context.Context) error {
	if s.ready.Load() {
		return nil
	}
	if err := s.InitSchema(ctx); err != nil {
		return err
	}
	s.ready.Store(true)
	return nil
}

// Active reads the active persona, creating the schema first if it is not
// there yet.
func (s *schemaStore) Active(ctx context.Context) (coach.Persona, error) {
	if err := s.ensureSchema(ctx); err != nil {
		return coach.Persona{}, err
	}
	return s.Store.Active(ctx)
}
