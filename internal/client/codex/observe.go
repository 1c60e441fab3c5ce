package codex

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/instrlab/instrlab/internal/client"
	"github.com/instrlab/instrlab/internal/evidence"
)

// Observe implements client.Client.
func (c *Codex) Observe(e client.Evidence) client.Observation {
	return Observe(e.Dir, len(e.Servers))
}

// Observe reads the evidence of a Codex run kept under dir: the JSON
// events on stdout and the tracing log on stderr. Codex reports no status
// per MCP server; the status given is "connected (N tools)" when its log
// shows the tool catalog of the one configured server, else "no catalog in
// log", or "start-up timed out after N s" when the log says Codex gave the
// handshake up. Its catalog lines name no server, so with several servers
// configured the status counts the catalogs and names none.
func Observe(dir string, servers int) client.Observation {
	var o client.Observation
	o.Read(dir, evidence.StdoutFile, func(f io.Reader, name string) []string {
		ev, w := ParseEvents(f, name)
		o.Answer, o.ResultError = ev.Answer, ev.Failed
		if ev.Count == 0 {
			w = append(w, name+": no JSON events")
		}
		return w
	})
	o.Read(dir, evidence.StderrFile, func(f io.Reader, name string) []string {
		l, w := ParseLog(f, name)
		o.ServerStatus = catalogStatus(l.Catalogs, servers)
		if len(l.Catalogs) == 0 && l.TimedOut != "" {
			if v, err := strconv.ParseFloat(l.TimedOut, 64); err == nil {
				o.ServerStatus = fmt.Sprintf("start-up timed out after %.1f s", v)
			}
		}
		return append(w, l.Problems...)
	})
	return o
}

// catalogStatus is the status the catalogs of servers configured servers
// give: the last catalog's tools for one server; for several, how many of
// them have a catalog, and each one's tools in the log's order.
func catalogStatus(catalogs []Catalog, servers int) string {
	n := len(catalogs)
	switch {
	case n == 0:
		return "no catalog in log"
	case servers <= 1:
		return fmt.Sprintf("connected (%d tools)", catalogs[n-1].Tools)
	}
	tools := make([]string, n)
	for i, c := range catalogs {
		tools[i] = strconv.Itoa(c.Tools)
	}
	return fmt.Sprintf("%d catalogs for %d servers (%s tools; the log names no server)", n, servers, strings.Join(tools, ", "))
}
