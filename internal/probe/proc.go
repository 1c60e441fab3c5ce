package probe

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"time"

	"github.com/instrlab/instrlab/lab"
)

// maxLine bounds one line read from a server's stdout (the Go SDK's limit
// for a message is in this range): a longer reply fails its request with
// errTooLong, never read as stray output.
const maxLine = 16 << 20

// exitGrace is how long a process whose stdout closed gets to exit before
// its status is read.
const exitGrace = 500 * time.Millisecond

// A proc is one spawned server and the raw conversation with it.
type proc struct {
	cmd    *exec.Cmd
	tree   *lab.ProcessTree
	stdin  io.WriteCloser
	start  time.Time
	lines  chan line     // closed when stdout ends
	exited chan struct{} // closed when Wait returned
	done   chan struct{} // closed by stop
	stderr *tail
	// onReply, when set (before the first call), is called at the first
	// reply, with its time from spawn.
	onReply func(at time.Duration)

	mu         sync.Mutex
	firstReply time.Duration
	stray      []string // the first maxStray stray lines
	strays     int      // how many there were
	// heard are the methods of the requests and notifications the server
	// sent while a call waited, the first maxHeard (takeHeard).
	heard []string
}

// maxHeard bounds the methods a call keeps of what the server sent
// meanwhile.
const maxHeard = 64

// hear notes a request or notification the server sent while a call
// waited.
func (p *proc) hear(method string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.heard) < maxHeard {
		p.heard = append(p.heard, method)
	}
}

// takeHeard returns what the server sent since the last takeHeard.
func (p *proc) takeHeard() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	h := p.heard
	p.heard = nil
	return h
}

type line struct {
	data []byte
	at   time.Duration // since start
	size int           // the whole line's length: more than len(data) when cut at maxLine
}

// spawn starts t's command with stdin and stdout as pipes.
func spawn(t Target) (*proc, error) {
	cmd := exec.Command(t.Command, t.Args...)
	cmd.Dir = t.Dir
	if len(t.Env) > 0 {
		cmd.Env = os.Environ()
		for k, v := range t.Env {
			cmd.Env = append(cmd.Env, k+"="+v)
		}
	}
	p := &proc{cmd: cmd, tree: lab.PrepareTree(cmd), lines: make(chan line, 64), exited: make(chan struct{}), done: make(chan struct{}), stderr: newTail(4096)}
	cmd.Stderr = p.stderr
	// stdout is a pipe of our own rather than StdoutPipe, whose reader Wait
	// closes: a server that replies and exits at once must still be heard.
	stdout, w, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	cmd.Stdout = w
	cmd.WaitDelay = time.Second // children holding stderr open do not block Wait
	if p.stdin, err = cmd.StdinPipe(); err != nil {
		stdout.Close()
		w.Close()
		return nil, err
	}
	p.start = time.Now()
	err = cmd.Start()
	w.Close()
	if err != nil {
		stdout.Close()
		return nil, err
	}
	go p.read(stdout)
	go func() {
		cmd.Wait()
		close(p.exited)
	}()
	return p, nil
}

func (p *proc) read(r io.ReadCloser) {
	defer close(p.lines)
	defer r.Close()
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		data, size, err := readLine(br, maxLine)
		if len(bytes.TrimSpace(data)) > 0 {
			select {
			case p.lines <- line{data: data, at: time.Since(p.start), size: size}:
			case <-p.done:
				return
			}
		}
		if err != nil {
			return
		}
	}
}

// readLine reads one line without its newline, and its whole length; a
// line longer than max is returned cut at max, the rest of it read and
// discarded.
func readLine(br *bufio.Reader, max int) ([]byte, int, error) {
	var buf []byte
	size := 0
	for {
		chunk, err := br.ReadSlice('\n')
		size += len(chunk)
		buf = append(buf, chunk[:min(len(chunk), max-len(buf))]...)
		if err == bufio.ErrBufferFull {
			continue
		}
		size -= len(chunk) - len(bytes.TrimRight(chunk, "\r\n")) // the line's end
		return bytes.TrimRight(buf, "\r\n"), size, err
	}
}

// errTooLong is a reply longer than maxLine.
type errTooLong struct{ size int }

func (e errTooLong) Error() string {
	return fmt.Sprintf("the server's reply is a line of %d bytes, longer than %d bytes (16 MiB), the most check reads of one message", e.size, maxLine)
}

// send writes one message as a line.
func (p *proc) send(msg any) error {
	data, err := json.Marshal(msg)
	if err != nil {
		return err
	}
	_, err = p.stdin.Write(append(data, '\n'))
	return err
}

// A call's fate when no reply came.
var (
	errExited  = errors.New("the server exited")
	errSilent  = errors.New("no reply")
	errTooDeep = fmt.Errorf("the server's reply is JSON nested deeper than %d levels, the most check parses", lab.MaxDepth)
)

// call sends a request and waits for the reply with its id, answering what
// the server asks meanwhile and collecting stray lines. It returns errExited
// when stdout ends first and errSilent when ctx is done first.
func (p *proc) call(ctx context.Context, id any, method string, params any) (wireMsg, error) {
	idRaw, _ := json.Marshal(id)
	req := map[string]any{"jsonrpc": "2.0", "id": id, "method": method}
	if params != nil {
		req["params"] = params
	}
	if err := p.send(req); err != nil {
		// A closed pipe means the process is gone; say so after stdout ends.
		p.drain(ctx)
		return wireMsg{}, errExited
	}
	for {
		select {
		case <-ctx.Done():
			return wireMsg{}, errSilent
		case l, ok := <-p.lines:
			if !ok {
				return wireMsg{}, errExited
			}
			if l.size > maxLine {
				// A reply check cannot read whole, to the request it
				// waits for: it sends one at a time.
				p.noteReply(l.at)
				return wireMsg{}, errTooLong{l.size}
			}
			m := parseMessage(l.data)
			switch {
			case m.kind == kindInvalid && m.deep:
				p.noteReply(l.at)
				return wireMsg{}, errTooDeep
			case m.kind == kindInvalid:
				p.addStray(string(l.data))
				continue
			case m.kind == kindRequest:
				p.hear(m.method)
				p.answer(m)
				continue
			case m.kind == kindNotification:
				p.hear(m.method)
				continue
			}
			p.noteReply(l.at)
			if sameID(m.id, idRaw) {
				return m, nil
			}
		}
	}
}

// drain consumes stdout until it ends or ctx is done.
func (p *proc) drain(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case l, ok := <-p.lines:
			if !ok {
				return
			}
			if parseMessage(l.data).kind == kindInvalid {
				p.addStray(string(l.data))
			}
		}
	}
}

// answer replies to a request from the server: ping succeeds, anything
// else is a method the probe does not offer.
func (p *proc) answer(m wireMsg) {
	reply := map[string]any{"jsonrpc": "2.0", "id": m.id}
	if m.method == "ping" {
		reply["result"] = map[string]any{}
	} else {
		reply["error"] = map[string]any{"code": -32601, "message": "instrlab check does not offer " + m.method}
	}
	p.send(reply)
}

func (p *proc) noteReply(at time.Duration) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.firstReply == 0 {
		p.firstReply = at
		if p.onReply != nil {
			p.onReply(at)
		}
	}
}

// maxStray bounds the stray lines kept, and strayClip each one's length.
const (
	maxStray  = 5
	strayClip = 200
)

func (p *proc) strayCount() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.strays
}

func (p *proc) addStray(s string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.strays++
	if len(p.stray) < maxStray {
		p.stray = append(p.stray, clip(s, strayClip))
	}
}

// exitCode waits up to exitGrace for the process to exit and returns its
// status, or nil when it is still running.
func (p *proc) exitCode() *int {
	select {
	case <-p.exited:
		code := p.cmd.ProcessState.ExitCode()
		return &code
	case <-time.After(exitGrace):
		return nil
	}
}

// eofGrace is how long a server gets to exit by itself once its stdin is
// closed, as a well-behaved stdio server does at the end of its input,
// before its tree is ended.
const eofGrace = 100 * time.Millisecond

// stop closes the server's stdin, gives it eofGrace to exit, then ends its
// process tree (see lab.ProcessTree: a daemon it started with setsid too)
// and waits for it.
func (p *proc) stop() {
	close(p.done)
	p.stdin.Close()
	select {
	case <-p.exited:
	case <-time.After(eofGrace):
	}
	p.tree.End(0) // what is left: SIGTERM, then SIGKILL at once, and waits (1 s at most) for the tree to be gone
	select {
	case <-p.exited:
	case <-time.After(5 * time.Second):
	}
}

// A tail keeps the last n bytes written to it.
type tail struct {
	mu      sync.Mutex
	n       int
	head    []byte // the first n bytes
	buf     []byte // the last n bytes after head
	dropped int    // bytes between head and buf
}

func newTail(n int) *tail { return &tail{n: n} }

func (t *tail) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	n := len(b)
	if room := t.n - len(t.head); room > 0 {
		k := min(room, len(b))
		t.head = append(t.head, b[:k]...)
		b = b[k:]
	}
	t.buf = append(t.buf, b...)
	if len(t.buf) > t.n {
		t.dropped += len(t.buf) - t.n
		t.buf = t.buf[len(t.buf)-t.n:]
	}
	return n, nil
}

// String is the first and the last n bytes written, with a line that
// says how much was left out between them.
func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := string(bytes.ToValidUTF8(t.head, nil))
	if t.dropped > 0 {
		s += fmt.Sprintf("\n… %d bytes left out …\n", t.dropped)
	}
	return s + string(bytes.ToValidUTF8(t.buf, nil))
}
