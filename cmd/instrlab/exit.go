package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
)

// Exit codes shared by every subcommand.
const (
	exitOK      = 0
	exitFailure = 1 // the command ran and failed, or found what breaks a rule
	exitUsage   = 2 // the command line was wrong
)

// errHelp reports that -h was given; the usage has been printed.
var errHelp = flag.ErrHelp

// A usageError is a mistake on the command line; it exits with exitUsage.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

// An exitError carries its own exit code, for commands with more codes
// than ok, failure and usage (check exits 3 when it could not connect).
type exitError struct {
	code int
	err  error
}

func (e exitError) Error() string { return e.err.Error() }
func (e exitError) Unwrap() error { return e.err }

// exitCode maps the error returned by run to the process exit code, and
// prints it to stderr.
func exitCode(err error, stderr io.Writer) int {
	if err == nil || errors.Is(err, errHelp) {
		return exitOK
	}
	fmt.Fprintf(stderr, "instrlab: %v\n", err)
	var ue usageError
	if errors.As(err, &ue) {
		return exitUsage
	}
	var ee exitError
	if errors.As(err, &ee) {
		return ee.code
	}
	return exitFailure
}

// parseFlags parses args with fs, turning flag errors into usage errors.
// fs must use flag.ContinueOnError.
func parseFlags(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return errHelp
		}
		return usageError{err.Error()}
	}
	return nil
}
