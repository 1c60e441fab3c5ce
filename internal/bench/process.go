package bench

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"sync"
	"time"
)

// A Contender is one server to measure: a name for the report and the
// command that starts it speaking MCP on stdin and stdout. An argument
// "{log}" is replaced by the path of a fresh file, which the server is to
// fill with its message log (see [LogCounts]).
type Contender struct {
	Name string
	Argv []string
}

// LogPlaceholder in a contender's arguments stands for its message log.
const LogPlaceholder = "{log}"

// ParseContender parses NAME=COMMAND; the command is split at white space.
func ParseContender(s string) (Contender, error) {
	name, command, ok := strings.Cut(s, "=")
	argv := strings.Fields(command)
	if !ok || name == "" || len(argv) == 0 {
		return Contender{}, fmt.Errorf("contender %q: want NAME=COMMAND", s)
	}
	return Contender{Name: name, Argv: argv}, nil
}

// Logs reports whether the contender writes a message log.
func (c Contender) Logs() bool {
	for _, a := range c.Argv {
		if strings.Contains(a, LogPlaceholder) {
			return true
		}
	}
	return false
}

// A process is one running server.
type process struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stdout *bufio.Reader
	stderr *tailBuffer
}

// start spawns c, with logPath in place of "{log}".
func start(c Contender, logPath string) (*process, error) {
	argv := make([]string, len(c.Argv))
	for i, a := range c.Argv {
		argv[i] = strings.ReplaceAll(a, LogPlaceholder, logPath)
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	p := &process{cmd: cmd, stdin: stdin, stdout: bufio.NewReaderSize(stdout, 1<<20), stderr: &tailBuffer{max: 4 << 10}}
	cmd.Stderr = p.stderr
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting %s: %w", c.Name, err)
	}
	return p, nil
}

// readLine returns the next line of the server's output, without its
// newline.
func (p *process) readLine() ([]byte, error) {
	line, err := p.stdout.ReadSlice('\n')
	if errors.Is(err, bufio.ErrBufferFull) {
		rest, err2 := p.stdout.ReadBytes('\n')
		line, err = append(append([]byte(nil), line...), rest...), err2
	}
	if err != nil {
		return nil, fmt.Errorf("reading the server's output: %w (stderr: %s)", err, p.stderr)
	}
	return bytes.TrimRight(line, "\r\n"), nil
}

// stop closes the server's input, waits up to grace for it to exit, kills it
// after that, and returns its peak resident memory in bytes so far and the
// CPU time (user and system) it used in all.
//
// The peak is the process's own high-water mark (VmHWM) read just before
// its input is closed, where the system tells it: getrusage's ru_maxrss
// also counts the memory of the parent at the time of the fork, which would
// put a floor of this program's size under every server.
func (p *process) stop(grace time.Duration) (maxRSS int64, cpu time.Duration, err error) {
	hwm, hwmErr := highWaterMark(p.cmd.Process.Pid)
	p.stdin.Close()
	done := make(chan error, 1)
	go func() {
		io.Copy(io.Discard, p.stdout)
		done <- p.cmd.Wait()
	}()
	select {
	case err = <-done:
	case <-time.After(grace):
		p.cmd.Process.Kill()
		<-done
		err = fmt.Errorf("did not exit within %v of the end of its input; killed", grace)
	}
	if ps := p.cmd.ProcessState; ps != nil {
		cpu = ps.UserTime() + ps.SystemTime()
		maxRSS = maxRSSOf(ps)
	}
	if hwmErr == nil {
		maxRSS = hwm
	}
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		err = fmt.Errorf("%w (stderr: %s)", err, p.stderr)
	}
	return maxRSS, cpu, err
}

// A tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	buf []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if over := len(t.buf) - t.max; over > 0 {
		t.buf = t.buf[over:]
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return strings.TrimSpace(string(t.buf))
}
