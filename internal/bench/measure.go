package bench

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"time"
)

// initialize is the first request of every measurement, as a client of the
// 2025-11-25 revision sends it.
const initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"instrlab-bench","version":"0.1.0"}}}` + "\n"

const initialized = `{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n"

// exitGrace bounds the wait for a server to exit once its input ends.
const exitGrace = 5 * time.Second

// A Startup is one spawn of a server, up to its initialize reply.
type Startup struct {
	Elapsed time.Duration `json:"elapsed_ns"`    // from spawning the process to reading the reply
	MaxRSS  int64         `json:"max_rss_bytes"` // peak resident memory of the process
	CPU     time.Duration `json:"cpu_ns"`        // user and system time of the whole process, exit included
}

// MeasureStartup spawns c, sends initialize at once, and times the reply.
// dir holds the message log, if c writes one.
func MeasureStartup(c Contender, dir string) (Startup, error) {
	logPath, cleanup, err := logFile(dir, c)
	if err != nil {
		return Startup{}, err
	}
	defer cleanup()
	t0 := time.Now()
	p, err := start(c, logPath)
	if err != nil {
		return Startup{}, err
	}
	if _, err := io.WriteString(p.stdin, initialize); err != nil {
		p.stop(exitGrace)
		return Startup{}, fmt.Errorf("%s: writing initialize: %w", c.Name, err)
	}
	if err := awaitReply(p, 1); err != nil {
		p.stop(exitGrace)
		return Startup{}, fmt.Errorf("%s: %w", c.Name, err)
	}
	s := Startup{Elapsed: time.Since(t0)}
	s.MaxRSS, s.CPU, err = p.stop(exitGrace)
	if err != nil {
		return s, fmt.Errorf("%s: %w", c.Name, err)
	}
	return s, nil
}

// awaitReply reads the server's output up to the reply to request id,
// skipping notifications and requests, and fails on an error reply.
func awaitReply(p *process, id int) error {
	for {
		line, err := p.readLine()
		if err != nil {
			return err
		}
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Error  json.RawMessage `json:"error"`
		}
		if err := json.Unmarshal(line, &m); err != nil {
			return fmt.Errorf("the server wrote a line that is not JSON: %.200q", line)
		}
		if m.Method != "" || string(m.ID) != strconv.Itoa(id) {
			continue
		}
		if m.Error != nil {
			return fmt.Errorf("request %d failed: %s", id, m.Error)
		}
		return nil
	}
}

// A Throughput is one run of pipelined tools/list requests.
type Throughput struct {
	Requests   int           `json:"requests"`
	Elapsed    time.Duration `json:"elapsed_ns"`    // from the first request written to the last reply read
	MaxRSS     int64         `json:"max_rss_bytes"` // peak resident memory of the process
	CPU        time.Duration `json:"cpu_ns"`        // user and system time of the whole process
	ReplyBytes int           `json:"reply_bytes"`   // the size of one reply
	Log        *LogCounts    `json:"log,omitempty"` // what the message log holds, if the server wrote one
}

// Rate is the requests answered per second.
func (t Throughput) Rate() float64 { return float64(t.Requests) / t.Elapsed.Seconds() }

// MeasureThroughput starts c, completes the handshake, writes n tools/list
// requests without waiting for replies, and times the replies. A server that
// writes a message log must have logged every request and every reply.
func MeasureThroughput(c Contender, n int, dir string) (Throughput, error) {
	logPath, cleanup, err := logFile(dir, c)
	if err != nil {
		return Throughput{}, err
	}
	defer cleanup()
	p, err := start(c, logPath)
	if err != nil {
		return Throughput{}, err
	}
	fail := func(err error) (Throughput, error) {
		p.stop(exitGrace)
		return Throughput{}, fmt.Errorf("%s: %w", c.Name, err)
	}
	if _, err := io.WriteString(p.stdin, initialize); err != nil {
		return fail(err)
	}
	if err := awaitReply(p, 1); err != nil {
		return fail(err)
	}
	if _, err := io.WriteString(p.stdin, initialized); err != nil {
		return fail(err)
	}
	var reqs bytes.Buffer
	for i := range n {
		fmt.Fprintf(&reqs, `{"jsonrpc":"2.0","id":%d,"method":"tools/list"}`+"\n", i+2)
	}
	t := Throughput{Requests: n}
	werr := make(chan error, 1)
	t0 := time.Now()
	go func() {
		_, err := p.stdin.Write(reqs.Bytes())
		werr <- err
	}()
	for got := 0; got < n; {
		line, err := p.readLine()
		if err != nil {
			return fail(fmt.Errorf("after %d of %d replies: %w", got, n, err))
		}
		switch {
		case bytes.Contains(line, []byte(`"result"`)):
			got++
			t.ReplyBytes = len(line)
		case bytes.Contains(line, []byte(`"error"`)):
			return fail(fmt.Errorf("tools/list failed: %.300s", line))
		}
	}
	t.Elapsed = time.Since(t0)
	if err := <-werr; err != nil {
		return fail(fmt.Errorf("writing requests: %w", err))
	}
	if t.MaxRSS, t.CPU, err = p.stop(exitGrace); err != nil {
		return t, fmt.Errorf("%s: %w", c.Name, err)
	}
	if logPath != "" {
		counts, err := CountLog(logPath)
		if err != nil {
			return t, fmt.Errorf("%s: %w", c.Name, err)
		}
		t.Log = &counts
		if counts.Recv != n || counts.Sent != n {
			return t, fmt.Errorf("%s: the message log holds %d of %d tools/list requests and %d of %d replies", c.Name, counts.Recv, n, counts.Sent, n)
		}
	}
	return t, nil
}

// logFile makes a fresh log path in dir for a contender that logs.
func logFile(dir string, c Contender) (path string, cleanup func(), err error) {
	if !c.Logs() {
		return "", func() {}, nil
	}
	f, err := os.CreateTemp(dir, c.Name+"-*.jsonl")
	if err != nil {
		return "", nil, err
	}
	f.Close()
	os.Remove(f.Name()) // the server creates it
	return f.Name(), func() { os.Remove(f.Name()) }, nil
}

// LogCounts is what a lab message log holds about tools/list.
type LogCounts struct {
	Lines int `json:"lines"` // all lines
	Recv  int `json:"recv"`  // tools/list requests received
	Sent  int `json:"sent"`  // replies to tools/list sent
}

// CountLog reads a lab message log (JSON Lines, see lab.Entry).
func CountLog(path string) (LogCounts, error) {
	f, err := os.Open(path)
	if err != nil {
		return LogCounts{}, fmt.Errorf("reading the message log: %w", err)
	}
	defer f.Close()
	var c LogCounts
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		c.Lines++
		var e struct {
			Dir    string `json:"dir"`
			Kind   string `json:"kind"`
			Method string `json:"method"`
		}
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			return c, fmt.Errorf("%s:%d: %v", path, c.Lines, err)
		}
		if e.Method != "tools/list" {
			continue
		}
		switch {
		case e.Dir == "recv" && e.Kind == "request":
			c.Recv++
		case e.Dir == "send" && e.Kind == "response":
			c.Sent++
		}
	}
	return c, sc.Err()
}
