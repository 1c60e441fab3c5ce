package opencode

import (
	"fmt"
	"io"
	"regexp"
	"sync"

	"github.com/instrlab/instrlab/internal/jsonl"
)

// A Log is what opencode's log (--print-logs, on stderr) says about MCP
// servers: its ERROR and WARN lines that mention MCP or say a server is
// unavailable (a server that did not connect in time), as file:line: text,
// in either of its two styles ("timestamp=... level=WARN ..." and
// "WARN  2026-12-01T03:40:27 +415ms service=...").
type Log struct {
	Problems []string
	Lines    int
}

var problemRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(level=(ERROR|WARN) |^(ERROR|WARN) ).*((?i:mcp)|"server unavailable")`)
})

// ParseLog reads opencode's stderr; lines it does not recognise are
// skipped.
func ParseLog(r io.Reader, name string) (Log, []string) {
	var l Log
	w := jsonl.Lines(r, name, func(n int, b []byte) error {
		l.Lines = n
		if line := string(b); problemRE().MatchString(line) {
			if len(line) > 300 {
				line = line[:300]
			}
			l.Problems = append(l.Problems, fmt.Sprintf("%s:%d: %s", name, n, line))
		}
		return nil
	})
	return l, w
}
