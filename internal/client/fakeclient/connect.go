package fakeclient

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"time"

	"github.com/instrlab/instrlab/internal/client"
)

// The server statuses the fake client reports, as Claude Code's init
// event does.
const (
	statusConnected = "connected"
	statusPending   = "pending" // not ready within the budget; sent without it
	statusFailed    = "failed"
)

// What the fake client does with a server not ready within its budget
// (FAKE_PAST), and with one that becomes ready after its first request
// (FAKE_LATE).
const (
	pastSend      = "send"  // send the first request without the server, which may join later
	pastDrop      = "drop"  // drop the server for the session
	pastExit      = "exit"  // give up and exit 1 before any model request, as Continue CLI 1.5.47 does
	lateJoin      = "join"  // a late server's instructions and tools reach the next request
	lateToolsOnly = "tools" // its tools reach the next request; its instructions are lost for the session
)

// A budget is how the fake client waits for its server: at most wait from
// starting it (forever when zero), then past (send or drop); it makes
// turns model requests, gap apart (as a model's turn and a tool call
// take time), and a server ready after the first joins the next as late
// says. FAKE_WAIT, FAKE_PAST, FAKE_TURNS, FAKE_GAP and FAKE_LATE set them:
// a synthetic client with a known budget, for the bisection tests.
type budget struct {
	wait  time.Duration
	past  string
	turns int
	gap   time.Duration
	late  string
	// deferAt, when set, is the count of a server's tools from which the
	// client defers them: named in a text behind a ToolSearch tool, not
	// defined (FAKE_DEFER_AT).
	deferAt int
	// nameMax, when set, is the longest tool name, its prefix included,
	// the client sends; namePast what it does with a longer one: drop the
	// tool or cut the name (FAKE_NAME_MAX, FAKE_NAME_PAST).
	nameMax  int
	namePast string
}

// What the fake client does with a tool name past FAKE_NAME_MAX.
const (
	nameDrop = "drop"
	nameCut  = "cut"
)

func budgetFromEnv() (budget, error) {
	b := budget{past: pastSend, turns: 1, late: lateJoin}
	if v := os.Getenv("FAKE_WAIT"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			return b, fmt.Errorf("FAKE_WAIT %q: want a positive duration", v)
		}
		b.wait = d
	}
	if v := os.Getenv("FAKE_PAST"); v != "" {
		if v != pastSend && v != pastDrop && v != pastExit {
			return b, fmt.Errorf("FAKE_PAST %q: want %s, %s or %s", v, pastSend, pastDrop, pastExit)
		}
		b.past = v
	}
	if v := os.Getenv("FAKE_TURNS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return b, fmt.Errorf("FAKE_TURNS %q: want 1 or more", v)
		}
		b.turns = n
	}
	if v := os.Getenv("FAKE_GAP"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d < 0 {
			return b, fmt.Errorf("FAKE_GAP %q: want a duration", v)
		}
		b.gap = d
	}
	for _, n := range []struct {
		env string
		p   *int
	}{{"FAKE_DEFER_AT", &b.deferAt}, {"FAKE_NAME_MAX", &b.nameMax}} {
		if v := os.Getenv(n.env); v != "" {
			k, err := strconv.Atoi(v)
			if err != nil || k < 1 {
				return b, fmt.Errorf("%s %q: want 1 or more", n.env, v)
			}
			*n.p = k
		}
	}
	switch b.namePast = os.Getenv("FAKE_NAME_PAST"); b.namePast {
	case "":
		b.namePast = nameDrop
	case nameDrop, nameCut:
	default:
		return b, fmt.Errorf("FAKE_NAME_PAST %q: want %s or %s", b.namePast, nameDrop, nameCut)
	}
	if v := os.Getenv("FAKE_LATE"); v != "" {
		if v != lateJoin && v != lateToolsOnly {
			return b, fmt.Errorf("FAKE_LATE %q: want %s or %s", v, lateJoin, lateToolsOnly)
		}
		b.late = v
	}
	return b, nil
}

// A tool is one tool a server listed.
type tool struct {
	Name        string `json:"name"`
	Description string `json:"description"`
}

// ready is what a server gave once its handshake was done.
type ready struct {
	instructions string
	tools        []tool
}

// A conn is the fake client's connection to its one server, made in the
// background from the moment the server is started.
type conn struct {
	started  time.Time
	done     chan struct{} // closed once the server is ready or failed
	mu       sync.Mutex
	got      *ready
	failed   bool
	shutdown func()
	// abort cancels the handshake and ends the server, as a client that
	// gives up on it does (the MCP SDKs' stdio transports kill the
	// process on close).
	abort func()
	// http is the connection to a Streamable HTTP server; nil for stdio.
	http *httpConn
}

// connect starts the server and its handshake (initialize, initialized,
// tools/list) in the background.
func connect(srv client.Server) *conn {
	c := &conn{started: time.Now(), done: make(chan struct{}), shutdown: func() {}, abort: func() {}}
	if srv.URL != "" {
		c.http = newHTTPConn(srv.URL)
		got, ok := c.http.connect()
		c.finish(got, !ok)
		return c
	}
	cmd := exec.Command(srv.Command, srv.Args...)
	cmd.Env = append(os.Environ(), LabEnv+"=1", envRole+"=")
	for k, v := range srv.Env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		c.finish(nil, true)
		return c
	}
	c.shutdown = func() {
		in.Close()
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			cmd.Process.Kill()
		}
	}
	var wmu sync.Mutex
	write := func(line string) {
		wmu.Lock()
		defer wmu.Unlock()
		fmt.Fprintln(in, line)
	}
	c.abort = func() {
		// As Continue CLI 1.5.47 does at its 60 s timeout: cancel the
		// initialize, then end the server a moment later.
		write(cancelInitialize)
		time.Sleep(100 * time.Millisecond)
		cmd.Process.Kill()
	}
	go func() {
		write(initializeRequest)
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 0, 1<<20), 16<<20)
		var got ready
		for sc.Scan() {
			var m reply
			if json.Unmarshal(sc.Bytes(), &m) != nil {
				continue
			}
			switch {
			case string(m.ID) == "0" && m.Result == nil:
				c.finish(nil, true)
				return
			case string(m.ID) == "0":
				got.instructions = m.Result.Instructions
				write(initializedNotification)
				write(toolsListRequest)
			case string(m.ID) == "1":
				if m.Result != nil { // none when tools/list failed
					got.tools = m.Result.Tools
				}
				c.finish(&got, false)
				return
			}
		}
		c.finish(nil, true)
	}()
	return c
}

func (c *conn) finish(got *ready, failed bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	select {
	case <-c.done:
		return
	default:
	}
	c.got, c.failed = got, failed
	close(c.done)
}

// wait waits for the server within b (measured from its start) and says
// what it gave and the status to report: nil and pending (or failed, when
// b drops a late server) past the budget.
func (c *conn) wait(b budget) (*ready, string) {
	var deadline <-chan time.Time
	if b.wait > 0 {
		t := time.NewTimer(time.Until(c.started.Add(b.wait)))
		defer t.Stop()
		deadline = t.C
	}
	select {
	case <-c.done:
	case <-deadline:
		if b.past == pastDrop || b.past == pastExit {
			return nil, statusFailed
		}
		return nil, statusPending
	}
	if got := c.now(); got != nil {
		return got, statusConnected
	}
	return nil, statusFailed
}

// now is what the server gave, if it is ready by now.
func (c *conn) now() *ready {
	select {
	case <-c.done:
	default:
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.failed {
		return nil
	}
	return c.got
}
