package testutil

import (
	"bufio"
	"io"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"
)

// Stdio is a started process with its standard streams in hand, as a
// client holds a stdio MCP server.
type Stdio struct {
	Cmd    *exec.Cmd
	Stdin  io.WriteCloser
	Stdout *bufio.Reader
	Stderr *strings.Builder // read it only once the process has ended

	out  io.ReadCloser // the reading end of the process's standard output
	once sync.Once
	done chan error
}

// StartStdio starts cmd with pipes to its standard input and output and
// its standard error kept. At the end of the test the process is killed if
// it still runs, and waited for.
func StartStdio(t testing.TB, cmd *exec.Cmd) *Stdio {
	t.Helper()
	s := &Stdio{Cmd: cmd, Stderr: new(strings.Builder), done: make(chan error, 1)}
	cmd.Stderr = s.Stderr
	var err error
	if s.Stdin, err = cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	if s.out, err = cmd.StdoutPipe(); err != nil {
		t.Fatal(err)
	}
	s.Stdout = bufio.NewReaderSize(s.out, 1<<20)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		s.wait()
		<-s.done
	})
	return s
}

// Exchange writes line and a newline, and returns the next line read, its
// newline included.
func (s *Stdio) Exchange(t testing.TB, line string) string {
	t.Helper()
	if _, err := io.WriteString(s.Stdin, line+"\n"); err != nil {
		t.Fatalf("write: %v", err)
	}
	reply, err := s.Stdout.ReadString('\n')
	if err != nil {
		t.Fatalf("no reply to %.60s: %v (stderr: %s)", line, err, s.Stderr.String())
	}
	return reply
}

// CloseStdout closes the reading end of the process's standard output, as
// a client that goes away without reading it does: the process's next
// write there fails.
func (s *Stdio) CloseStdout() error { return s.out.Close() }

// Wait waits up to d for the process to end and returns what cmd.Wait
// returned; a process still running after d is killed and fails the test.
// Reads of Stdout must be done before.
func (s *Stdio) Wait(t testing.TB, d time.Duration) error {
	t.Helper()
	s.wait()
	select {
	case err := <-s.done:
		s.done <- err // for the cleanup
		return err
	case <-time.After(d):
		s.Cmd.Process.Kill()
		t.Fatalf("%s still running %v after it was asked to end", s.Cmd.Path, d)
		return nil
	}
}

func (s *Stdio) wait() {
	s.once.Do(func() { go func() { s.done <- s.Cmd.Wait() }() })
}
