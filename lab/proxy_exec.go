package lab

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strings"
	"time"
)

// stopGrace is how long a server has to end after its stdin closes, and
// again after SIGTERM, before it is killed.
const stopGrace = 2 * time.Second

// testHookInputClosed runs after the proxy has closed the server's input
// because the client left; a test makes it slow to stand for a proxy
// descheduled there on a busy machine.
var testHookInputClosed = func() {}

// ErrServerExited is returned by ServeCommand when the server ended while
// the client was still connected, or failed on its own after.
var ErrServerExited = errors.New("server exited")

// ServeCommand starts cmd (whose stdin, stdout and stderr it sets) and
// relays the client on stdin and stdout to it until either side ends. The
// server's stderr is copied to stderr (nil discards it) and its first lines
// are logged. The server ends when the client closes stdin (its stdin is
// closed), when it closes its stdout (it can answer no more), or when ctx
// is done: it has stopGrace to end before SIGTERM, and stopGrace more
// before SIGKILL, sent to its whole process tree (see ProcessTree). Whatever
// it started that still holds its stdout or stderr once it has ended (a
// daemon) is ended too, and named in the log when it survives. Everything
// the server wrote before it ended is relayed and logged, and how it ended
// is logged last.
func (p *Proxy) ServeCommand(ctx context.Context, cmd *exec.Cmd, stdin io.Reader, stdout, stderr io.Writer) error {
	toServer, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	// Pipes of our own, not StdoutPipe's, which Wait closes: the server's
	// last lines are read after it has ended, and a daemon holding them
	// is seen as such.
	fromServer, outW, err := os.Pipe()
	if err != nil {
		return err
	}
	errPipe, errW, err := os.Pipe()
	if err != nil {
		fromServer.Close()
		outW.Close()
		return err
	}
	cmd.Stdout, cmd.Stderr = outW, errW
	tree := PrepareTree(cmd)
	err = cmd.Start()
	outW.Close()
	errW.Close()
	if err != nil {
		fromServer.Close()
		errPipe.Close()
		p.logServer(KindFailure, "starting the server: "+err.Error())
		return fmt.Errorf("starting the server: %w", err)
	}
	exited := make(chan struct{})
	var werr error
	go func() { werr = cmd.Wait(); close(exited) }()
	stderrDone := make(chan struct{})
	go func() { p.LogStderr(errPipe, stderr); close(stderrDone) }()
	clientDone := make(chan struct{})
	inputClosed := testHookInputClosed
	go func() {
		// Only the client's end of input is the client leaving; a write
		// that fails means the server is gone, which exited reports.
		// The client's leaving is noted before the server's input is
		// closed: a server that ends at once at the end of its input
		// must not be taken for one that ended on its own.
		if p.Relay(Recv, stdin, toServer) == nil {
			close(clientDone)
			toServer.Close()
			inputClosed()
		}
	}()
	serverDone := make(chan struct{}) // the server's stdout ended
	go func() {
		p.Relay(Send, fromServer, stdout)
		close(serverDone)
	}()

	select {
	case <-exited:
	case <-serverDone:
	case <-clientDone:
	case <-ctx.Done():
		toServer.Close()
	case <-p.log.Failed():
		// Relay nothing that goes unrecorded: the server is stopped as
		// at the proxy's own stop, and the error says why.
		toServer.Close()
	}
	logFailed := isClosed(p.log.Failed())
	clientLeft, closedOut := isClosed(clientDone), isClosed(serverDone) && !isClosed(exited)
	stopped := ""
	if !isClosed(exited) {
		why := "its input closed"
		if closedOut && !clientLeft {
			why = "it closed its stdout"
		}
		stopped = stop(tree, exited, why, p.Urgent)
	}
	// The server has ended; what it started may still hold its stdout or
	// stderr. They have stopGrace to let go, then the tree is ended, and
	// the pipes closed whatever holds them. Urgent, all of it at once.
	grace := stopGrace
	if isClosed(p.Urgent) {
		grace = 0
	}
	held := !waitAll(grace, serverDone, stderrDone)
	var left []string
	if held {
		left = tree.End(grace)
		if !waitAll(grace, serverDone, stderrDone) {
			fromServer.Close()
			errPipe.Close()
		}
	} else {
		left = tree.End(grace)
	}
	<-serverDone
	<-stderrDone
	fromServer.Close()
	errPipe.Close()
	how := describeExit(cmd, werr)
	switch {
	case stopped != "":
		how += " (" + stopped + ")"
	case clientLeft:
		how += " after the client closed its input"
	case ctx.Err() != nil:
		how += " when the proxy was stopped"
	case logFailed:
		how += " when the message log could not be written"
	default:
		how += " while the client was connected"
	}
	if held {
		how += "; a process it started held its stdout or stderr after it ended, and was ended"
	}
	if len(left) > 0 {
		how += "; still running after SIGKILL: " + strings.Join(left, ", ")
	}
	p.logServer(KindExit, how)
	if logFailed {
		return fmt.Errorf("stopped relaying: %w (%s)", p.log.Err(), how)
	}
	if (clientLeft || ctx.Err() != nil) && (werr == nil || stopped != "") {
		return nil
	}
	return fmt.Errorf("%w: %s", ErrServerExited, how)
}

// stop waits stopGrace for the server to exit, then sends SIGTERM, then
// SIGKILL, to its process tree; once urgent is closed, SIGKILL at once.
// It says what it had to do (after why), or "" when the server ended on
// its own.
func stop(tree *ProcessTree, exited <-chan struct{}, why string, urgent <-chan struct{}) string {
	if waitOr(stopGrace, exited, urgent) {
		return ""
	}
	if !isClosed(urgent) {
		tree.Terminate()
		if waitOr(stopGrace, exited, urgent) {
			return "terminated after " + why
		}
	}
	tree.Kill()
	<-exited
	if isClosed(urgent) {
		return "killed after " + why + ": the proxy was stopped at once"
	}
	return "killed after " + why + ": it ignored SIGTERM"
}

// waitOr waits up to d for done to close, and reports whether it did; it
// stops waiting when urgent closes.
func waitOr(d time.Duration, done, urgent <-chan struct{}) bool {
	select {
	case <-done:
		return true
	case <-urgent:
		return isClosed(done)
	case <-time.After(d):
		return false
	}
}

// waitAll waits up to d for every channel to close, and reports whether
// they did.
func waitAll(d time.Duration, chans ...<-chan struct{}) bool {
	timeout := time.After(d)
	for _, c := range chans {
		select {
		case <-c:
		case <-timeout:
			return false
		}
	}
	return true
}

func isClosed(c <-chan struct{}) bool {
	select {
	case <-c:
		return true
	default:
		return false
	}
}

// describeExit says how the server ended, as in "exit status 1" or
// "signal: killed".
func describeExit(cmd *exec.Cmd, err error) string {
	if cmd.ProcessState != nil {
		return "the server ended: " + cmd.ProcessState.String()
	}
	return "the server ended: " + err.Error()
}

// A ServerCommand is a server's command line and extra environment, as
// "instrlab serve proxy -command-file" reads it: a runner writes it outside
// the evidence, so that a credential in the command or its environment
// reaches neither a client's config nor a log.
type ServerCommand struct {
	Command string            `json:"command"`
	Args    []string          `json:"args,omitempty"`
	Env     map[string]string `json:"env,omitempty"`
	Dir     string            `json:"dir,omitempty"` // the working directory; empty: the proxy's
	// Environ, when not nil, is the environment the server starts with
	// (before Env) instead of the proxy's, which is the client's: the
	// caller's, as the user's shell would give it.
	Environ []string `json:"environ,omitempty"`
}

// ReadServerCommand reads a ServerCommand from a JSON file.
func ReadServerCommand(path string) (ServerCommand, error) {
	var sc ServerCommand
	data, err := os.ReadFile(path)
	if err != nil {
		return sc, fmt.Errorf("reading the server command: %w", err)
	}
	if err := json.Unmarshal(data, &sc); err != nil {
		return sc, fmt.Errorf("reading the server command %s: %w", path, err)
	}
	if sc.Command == "" {
		return sc, fmt.Errorf("the server command in %s is empty", path)
	}
	return sc, nil
}

// Cmd returns the command, with Env added to Environ, or to the
// environment env when Environ is nil.
func (sc ServerCommand) Cmd(env []string) *exec.Cmd {
	cmd := exec.Command(sc.Command, sc.Args...)
	cmd.Dir = sc.Dir
	if sc.Environ != nil {
		env = sc.Environ
	}
	cmd.Env = slices.Clone(env)
	for k, v := range sc.Env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	return cmd
}
