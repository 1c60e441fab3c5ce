package cli

import (
	"context"
	"errors"
	"strings"
)

// An ExitError carries its own exit code (an ExitCoder): a command's
// failure with a code other than ExitFailure (check's 3, a jailed
// client's status), or ExitFailure with a message of its own.
type ExitError struct {
	Code int
	Err  error
}

func (e ExitError) Error() string { return e.Err.Error() }
func (e ExitError) Unwrap() error { return e.Err }
func (e ExitError) ExitCode() int { return e.Code }

// Clean returns err with its message passed through clean (to redact and
// escape what a server or a config wrote into it), keeping the exit code
// ExitCode gives it: a UsageError stays one, an ExitError keeps its code,
// a canceled context is left as it is.
func Clean(err error, clean func(string) string) error {
	var ue UsageError
	var ee ExitError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &ue):
		return UsageError{Msg: clean(ue.Msg)}
	case errors.As(err, &ee):
		return ExitError{ee.Code, errors.New(clean(ee.Err.Error()))}
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded), errors.Is(err, ErrHelp):
		return err
	}
	msg := clean(err.Error())
	if msg == err.Error() {
		return err
	}
	return errors.New(strings.TrimSpace(msg))
}
