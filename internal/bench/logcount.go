package bench

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
)

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
