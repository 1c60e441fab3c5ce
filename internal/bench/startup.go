package bench

import (
	"encoding/json"
	"fmt"
	"io"
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
