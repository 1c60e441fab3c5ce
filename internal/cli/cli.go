// Package cli is what the project's commands share about their command
// lines: the exit codes, the usage error, flag parsing, and how a command's
// error or a caught signal ends the process. cmd/instrlab, cmd/instrlab-lab
// and cmd/persona map errors to exit codes here and nowhere else.
package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
)

// Exit codes shared by every command.
const (
	ExitOK      = 0
	ExitFailure = 1 // the command ran and failed, or found what breaks a rule
	ExitUsage   = 2 // the command line was wrong
)

// ErrHelp reports that -h was given; the usage has been printed. It exits
// with ExitOK.
var ErrHelp = flag.ErrHelp

// A UsageError is a mistake on the command line; it exits with ExitUsage.
// Msg names the flag or argument at fault.
type UsageError struct{ Msg string }

func (e UsageError) Error() string { return e.Msg }

// An ExitCoder is an error that carries its own exit code, for commands
// with more codes than ok, failure and usage.
type ExitCoder interface {
	error
	ExitCode() int
}

// ExitCode maps the error a command returned to the process exit code, and
// prints the error to stderr after the program's name prog: nil and ErrHelp
// are ExitOK, a UsageError is ExitUsage, an ExitCoder its own code, any
// other error ExitFailure.
func ExitCode(prog string, err error, stderr io.Writer) int {
	if err == nil || errors.Is(err, ErrHelp) {
		return ExitOK
	}
	fmt.Fprintf(stderr, "%s: %v\n", prog, err)
	if errors.As(err, new(UsageError)) {
		return ExitUsage
	}
	if ec, ok := errors.AsType[ExitCoder](err); ok {
		return ec.ExitCode()
	}
	return ExitFailure
}

// ParseFlags parses args with fs, turning flag errors into usage errors;
// the old names of fs's renamed flags and values (renamed.go) still work.
// fs must use flag.ContinueOnError.
func ParseFlags(fs *flag.FlagSet, args []string) error {
	addRenamed(fs)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return ErrHelp
		}
		return UsageError{err.Error()}
	}
	return nil
}
