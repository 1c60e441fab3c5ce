package matrix

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
)

// serverPrompt asks for nothing a server's text could not answer; the fake
// answers with its reader's line offline all the same.
const serverPrompt = "Do not call any tools; answer only from what is already in your context. Reply with exactly one line: the name of each MCP server whose instructions you were given, or NONE."

var nameCharsRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[^a-z0-9._-]+`) })

// ForServers is the matrix of instrlab run -server and -config: one row
// per user's server, the server as it is (its own instructions and tools,
// behind the recording proxy). The server names are those of Row.Server
// and Runner.Servers.
func ForServers(names []string) *Matrix {
	m := &Matrix{Name: "servers", Description: "Your own servers through every client, as they are, behind the recording proxy.",
		Repeats: 1, Prompt: serverPrompt}
	for _, n := range names {
		row := strings.Trim(nameCharsRE().ReplaceAllString(strings.ToLower(n), "-"), "-._")
		if row == "" || !nameRE().MatchString(row) {
			row = fmt.Sprintf("server-%d", len(m.Rows)+1)
		}
		m.Rows = append(m.Rows, Row{Name: row, Label: n + ", as it is", Instr: "none", Server: n, NoDelta: true})
	}
	return m
}
