package gemini

import (
	"fmt"
	"io"
	"regexp"
	"sort"
	"sync"

	"github.com/instrlab/instrlab/internal/jsonl"
)

// A Debug is what the --debug output on stderr says about MCP servers.
type Debug struct {
	// Connected lists the servers whose notification handlers were
	// registered (the CLI does that once a server has connected), with
	// file:line.
	Connected map[string]string
	// Failures are lines that report an MCP server error, as file:line: text.
	Failures []string
	Lines    int
}

// The regexps are compiled on first use, not at every start of instrlab.
var (
	registeredRE = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`Registering notification handlers for server '([^']*)'`)
	})
	mcpErrorRE = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)(error|failed|timed out|timeout).*mcp server|mcp server.*(error|failed|timed out|disconnected)`)
	})
)

// ParseDebug reads the CLI's stderr. Lines it does not recognise are
// skipped: most are about other things.
func ParseDebug(r io.Reader, name string) (Debug, []string) {
	d := Debug{Connected: map[string]string{}}
	w := jsonl.Lines(r, name, func(n int, b []byte) error {
		d.Lines = n
		line := string(b)
		if m := registeredRE().FindStringSubmatch(line); m != nil {
			if _, ok := d.Connected[m[1]]; !ok {
				d.Connected[m[1]] = fmt.Sprintf("%s:%d", name, n)
			}
			return nil
		}
		if mcpErrorRE().MatchString(line) {
			if len(line) > 300 {
				line = line[:300]
			}
			d.Failures = append(d.Failures, fmt.Sprintf("%s:%d: %s", name, n, line))
		}
		return nil
	})
	return d, w
}

func sortStrings(s []string) { sort.Strings(s) }
