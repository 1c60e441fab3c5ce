package bench

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"time"
)

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
// requests without waiting for replies (in one write, or each in a write of
// its own), and times the replies. A server that writes a message log must
// have logged every request and every reply.
func MeasureThroughput(c Contender, n int, eachWrite bool, dir string) (Throughput, error) {
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
	ends := make([]int, n)
	for i := range n {
		fmt.Fprintf(&reqs, `{"jsonrpc":"2.0","id":%d,"method":"tools/list"}`+"\n", i+2)
		ends[i] = reqs.Len()
	}
	t := Throughput{Requests: n}
	werr := make(chan error, 1)
	t0 := time.Now()
	go func() {
		if !eachWrite {
			_, err := p.stdin.Write(reqs.Bytes())
			werr <- err
			return
		}
		b, start := reqs.Bytes(), 0
		for _, end := range ends {
			if _, err := p.stdin.Write(b[start:end]); err != nil {
				werr <- err
				return
			}
			start = end
		}
		werr <- nil
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
