package matrix

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/instrlab/instrlab/lab"
)

// serverPrompt asks for nothing a server's text could not answer; the fake
// answers with its reader's line offline all the same.
const serverPrompt = "Do not call any tools; answer only from what is already in your context. Reply with exactly one line: the name of each MCP server whose instructions you were given, or NONE."

var nameCharsRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[^a-z0-9._-]+`) })

// ForServers is the matrix of instrlab run -server and -config: one row
// per user's server, the server as it is (its own instructions and tools,
// behind the recording proxy). The server names are those of Row.Server
// and runner.Runner.Servers.
func ForServers(names []string) *Matrix {
	m := &Matrix{Name: "servers", Description: "Your own servers through every client, as they are, behind the recording proxy.",
		Repeats: 1, Prompt: serverPrompt}
	for _, n := range names {
		row := strings.Trim(nameCharsRE().ReplaceAllString(strings.ToLower(n), "-"), "-._")
		if row == "" || !nameRE().MatchString(row) {
			row = fmt.Sprintf("server-%d", len(m.Rows)+1)
		}
		m.Rows = append(m.Rows, Row{Name: row, Label: n + ", as it is", Args: lab.Args{Instr: "none"}, Server: n, NoDelta: true})
	}
	return m
}

// Hold adds to a matrix of ForServers a late-start row for each server
// named: the server as it is, its reply that completes the handshake held
// by the recording proxy for hold (init_delay), as the cross matrix's
// late-server rows hold the lab's. Whether the client waits for it shows
// in server ready and placement.
func (m *Matrix) Hold(names []string, hold time.Duration) {
	for _, n := range names {
		for _, r := range m.Rows {
			if r.Server == n && r.InitDelay == 0 {
				r.Name += "-held" + hold.String()
				r.Label = fmt.Sprintf("%s, its first reply held %s by the proxy", n, hold)
				r.InitDelay = hold
				m.Rows = append(m.Rows, r)
				break
			}
		}
	}
}
