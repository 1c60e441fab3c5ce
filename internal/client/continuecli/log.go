package continuecli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"sync"

	"github.com/instrlab/instrlab/internal/jsonl"
)

// LogFile is the client's log, relative to HOME; --verbose makes it log
// at debug level.
const LogFile = ".continue/logs/cn.log"

// A Log is what the client's log says about a run.
type Log struct {
	// Model is the model of the first streamChatResponse line.
	Model string
	// Failed maps each MCP server the client could not connect to to the
	// error it logged.
	Failed map[string]string
	// Problems are the warn and error lines that mention MCP, as
	// "name:line: text".
	Problems []string
}

// lineRE matches a log line: "2026-12-01 03:25:44.089 [8ba7c88f] [debug]:
// message {json}". Lines that do not match continue a message of several
// lines.
var lineRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d+ \[[0-9a-f]+\] \[(\w+)\]: (.*)$`)
})

var mcpRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)mcp`) })

// ParseLog reads the client's log. A line this parser reads the metadata
// of (the model, a failed server) and cannot decode is a warning
// "name:line: message".
func ParseLog(r io.Reader, name string) (Log, []string) {
	var l Log
	w := jsonl.Lines(r, name, func(n int, line []byte) error {
		m := lineRE().FindSubmatch(line)
		if m == nil {
			return nil
		}
		level, msg := string(m[1]), m[2]
		if (level == "warn" || level == "error") && mcpRE().Match(msg) {
			if len(line) > 300 {
				line = line[:300]
			}
			l.Problems = append(l.Problems, fmt.Sprintf("%s:%d: %s", name, n, line))
		}
		switch {
		case l.Model == "" && bytes.HasPrefix(msg, []byte("streamChatResponse called ")):
			var meta struct {
				Model struct {
					Model string `json:"model"`
				} `json:"model"`
			}
			if err := json.Unmarshal(bytes.TrimPrefix(msg, []byte("streamChatResponse called ")), &meta); err != nil {
				return fmt.Errorf("streamChatResponse: %w", err)
			}
			l.Model = meta.Model.Model
		case bytes.HasPrefix(msg, []byte("Failed to connect to MCP server ")):
			// The logger nests the metadata under "error".
			var meta struct {
				Error struct {
					Name  string `json:"name"`
					Error string `json:"error"`
				} `json:"error"`
			}
			if err := json.Unmarshal(bytes.TrimPrefix(msg, []byte("Failed to connect to MCP server ")), &meta); err != nil {
				return fmt.Errorf("failed MCP server: %w", err)
			}
			if l.Failed == nil {
				l.Failed = map[string]string{}
			}
			l.Failed[meta.Error.Name] = meta.Error.Error
		}
		return nil
	})
	return l, w
}
