package main

import (
	"flag"
	"io"

	"github.com/instrlab/instrlab/internal/cli"
)

// Exit codes shared by every subcommand (internal/cli owns them).
const (
	exitOK      = cli.ExitOK
	exitFailure = cli.ExitFailure
	exitUsage   = cli.ExitUsage
)

// errHelp reports that -h was given; the usage has been printed.
var errHelp = cli.ErrHelp

// A usageError is a mistake on the command line; it exits with exitUsage.
type usageError = cli.UsageError

// An exitError carries its own exit code, for commands with more codes
// than ok, failure and usage (check exits 3 when it could not connect).
type exitError struct {
	code int
	err  error
}

func (e exitError) Error() string { return e.err.Error() }
func (e exitError) Unwrap() error { return e.err }
func (e exitError) ExitCode() int { return e.code }

// exitCode maps the error returned by run to the process exit code, and
// prints it to stderr.
func exitCode(err error, stderr io.Writer) int { return cli.ExitCode("instrlab", err, stderr) }

// parseFlags parses args with fs, turning flag errors into usage errors.
// fs must use flag.ContinueOnError.
func parseFlags(fs *flag.FlagSet, args []string) error { return cli.ParseFlags(fs, args) }
