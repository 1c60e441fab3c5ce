package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// dbEnv names the environment variable that gives the database path.
const dbEnv = "PERSONA_DB"

// newFlagSet returns the FlagSet of one subcommand, with the -db flag every
// subcommand takes. Errors are returned, not printed and exited on.
func newFlagSet(name, synopsis string, stderr io.Writer) (*flag.FlagSet, *string) {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: persona %s %s\n", name, synopsis)
		fs.PrintDefaults()
	}
	db := fs.String("db", "", "settings database `path` (default $"+dbEnv+", else the user config dir)")
	return fs, db
}

// parse parses args into fs and checks the number of positional arguments,
// turning every mistake into a usage error.
func parse(fs *flag.FlagSet, args []string, nargs int) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return usageError{Msg: fmt.Sprintf("%s: %v", fs.Name(), err)}
	}
	if fs.NArg() != nargs {
		fs.Usage()
		return usageError{Msg: fmt.Sprintf("%s takes %d arguments, got %d", fs.Name(), nargs, fs.NArg())}
	}
	return nil
}

// dbPath resolves the database path: the -db flag, then $PERSONA_DB, then
// persona.db in the user config directory. It creates no directory.
func dbPath(flagValue string) (string, error) {
	if flagValue != "" {
		return flagValue, nil
	}
	if p := os.Getenv(dbEnv); p != "" {
		return p, nil
	}
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("finding the database: set -db or $%s: %w", dbEnv, err)
	}
	return filepath.Join(dir, "instrlab", "persona.db"), nil
}
