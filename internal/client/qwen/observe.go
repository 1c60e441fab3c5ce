package qwen

import (
	"io"
	"path/filepath"
	"regexp"
	"sort"
	"sync"

	"github.com/instrlab/instrlab/internal/client"
	"github.com/instrlab/instrlab/internal/client/streamjson"
	"github.com/instrlab/instrlab/internal/evidence"
	"github.com/instrlab/instrlab/internal/jsonl"
)

// Observe implements client.Client.
func (q *Qwen) Observe(e client.Evidence) client.Observation {
	return Observe(e.Dir, e.Primary())
}

// Observe reads the evidence of a Qwen Code run kept under dir: the
// stream-json output on stdout, which has Claude Code's shape (an init
// event listing mcp_servers with their status, a result event), so
// streamjson.Read reads it; and the debug log under
// ~/.qwen/debug, whose WARN and ERROR lines about MCP become warnings.
func Observe(dir, server string) client.Observation {
	var o client.Observation
	streamjson.Read(&o, dir, evidence.StdoutFile, server)
	logs, _ := filepath.Glob(evidence.RunDir(dir).Home(".qwen", "debug", "*.txt"))
	sort.Strings(logs)
	for _, p := range logs {
		rel, _ := filepath.Rel(dir, p)
		o.Read(dir, rel, func(f io.Reader, name string) []string {
			return DebugProblems(f, name)
		})
	}
	return o
}

var problemRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\[(WARN|ERROR)\].*(?i:mcp)`) })

// DebugProblems returns the WARN and ERROR lines of a debug log that
// mention MCP, as "name:line: text".
func DebugProblems(r io.Reader, name string) []string {
	return jsonl.Matching(r, name, problemRE())
}
