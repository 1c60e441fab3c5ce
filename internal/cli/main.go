package cli

import (
	"context"
	"errors"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"
)

// A Func is a command: it runs the command line args (without the
// program's name), writing data to stdout and progress to stderr, until
// it is done or ctx is canceled.
type Func func(ctx context.Context, args []string, stdout, stderr io.Writer) error

// Main runs run with os.Args and ends the process. SIGINT and SIGTERM
// cancel run's context; a second one closes Urgent(ctx) and, after
// UrgentGrace for run to end what it started (the proxy, its server's
// tree), ends the process by that signal, run returned or not: the command
// may be stuck where cancellation does not reach. Once run has returned (and cleaned up) the process
// dies by the signal it caught, so that whoever waits for it sees the
// signal and not a failure: a client that stops its servers with SIGTERM
// sees them terminated, and the proxy's log says "signal: terminated"
// rather than "exit status 1". Otherwise it exits with ExitCode's code,
// the error printed after prog.
func Main(prog string, run Func) {
	urgent, returned := make(chan struct{}), make(chan struct{})
	ctx, cancel := context.WithCancel(context.WithValue(context.Background(), urgentKey{}, (<-chan struct{})(urgent)))
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	caught := make(chan os.Signal, 1)
	go func() {
		s, ok := <-sigs
		if !ok {
			return
		}
		caught <- s
		cancel()
		// A second signal: what the command started ends at once, and
		// the process soon after.
		if s, ok := <-sigs; ok {
			signal.Stop(sigs)
			close(urgent)
			select {
			case <-returned:
			case <-time.After(UrgentGrace):
			}
			dieBy(s)
			os.Exit(ExitFailure)
		}
	}()
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	close(returned)
	signal.Stop(sigs)
	select {
	case s := <-caught:
		// The signal ended the command: dying by it says so, and "context
		// canceled" would only be a line on a stderr the process may
		// share with its parent (an MCP client's, for the lab), taken for
		// the parent's last word.
		code := ExitFailure
		if !errors.Is(err, context.Canceled) {
			code = ExitCode(prog, err, os.Stderr)
		}
		dieBy(s)
		os.Exit(code)
	default:
	}
	os.Exit(ExitCode(prog, err, os.Stderr))
}

// dieBy ends the process by the signal s. Where a process cannot signal
// itself (Windows), it returns and Main exits with the command's code.
func dieBy(s os.Signal) {
	signal.Reset(s)
	p, err := os.FindProcess(os.Getpid())
	if err != nil || p.Signal(s) != nil {
		return
	}
	time.Sleep(time.Second) // the signal arrives while this sleeps
}

// UrgentGrace is how long a command has, after a second signal, to end
// what it started before its process is ended.
const UrgentGrace = time.Second

type urgentKey struct{}

// Urgent is closed when Main caught a second signal: whatever the command
// started must end now, without the grace the first signal gives it. It
// is nil (never closed) for a context Main did not make.
func Urgent(ctx context.Context) <-chan struct{} {
	c, _ := ctx.Value(urgentKey{}).(<-chan struct{})
	return c
}
