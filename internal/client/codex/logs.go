package codex

import (
	"fmt"
	"io"
	"regexp"
	"strconv"
	"sync"

	"github.com/instrlab/instrlab/internal/jsonl"
)

// A Log is what Codex's tracing output (RUST_LOG=info, on stderr) says
// about MCP servers.
type Log struct {
	// Catalogs are the "MCP binding catalog materialized" events of
	// configured servers: the number of tools each listed, with file:line.
	Catalogs []Catalog
	// ServerStderr counts the lines of "MCP server stderr" Codex relayed.
	ServerStderr int
	// Problems are WARN and ERROR lines that mention MCP, as file:line: text.
	Problems []string
	// TimedOut is how long Codex says it waited before it gave up a
	// server's handshake ("timed out handshaking with MCP server after
	// 29.999999449s": its start-up timeout, 30 s by default), as printed;
	// "" when it did not say so.
	TimedOut string
	Lines    int
}

// A Catalog is one materialized MCP tool catalog.
type Catalog struct {
	Tools int    `json:"tools"`
	Where string `json:"where"`
}

// The regexps are compiled on first use, not at every start of instrlab.
var (
	catalogRE = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`MCP binding catalog materialized .*server_kind="configured".*tool_count=([0-9]+)`)
	})
	srvStderrRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`MCP server stderr`) })
	problemRE   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\S+\s+(WARN|ERROR)\s.*(?i:mcp)`) })
	timedOutRE  = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`timed out handshaking with MCP server after ([0-9.]+)s`)
	})
)

// ParseLog reads Codex's stderr. Lines it does not recognise are skipped:
// most are about other things.
func ParseLog(r io.Reader, name string) (Log, []string) {
	var l Log
	w := jsonl.Lines(r, name, func(n int, b []byte) error {
		l.Lines = n
		line := string(b)
		where := fmt.Sprintf("%s:%d", name, n)
		switch {
		case catalogRE().MatchString(line):
			m := catalogRE().FindStringSubmatch(line)
			k, err := strconv.Atoi(m[1])
			if err != nil {
				return fmt.Errorf("tool_count %q: %w", m[1], err)
			}
			l.Catalogs = append(l.Catalogs, Catalog{Tools: k, Where: where})
		case srvStderrRE().MatchString(line):
			l.ServerStderr++
		case problemRE().MatchString(line):
			if m := timedOutRE().FindStringSubmatch(line); m != nil {
				l.TimedOut = m[1]
			}
			if len(line) > 300 {
				line = line[:300]
			}
			l.Problems = append(l.Problems, where+": "+line)
		}
		return nil
	})
	return l, w
}
