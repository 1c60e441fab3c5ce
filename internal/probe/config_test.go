package probe

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func env(m map[string]string) func(string) (string, bool) {
	return func(k string) (string, bool) { v, ok := m[k]; return v, ok }
}

func TestParseConfig(t *testing.T) {
	data := `{"mcpServers": {
	  "web": {"type": "http", "url": "http://127.0.0.1:${PORT:-8080}/mcp", "headers": {"Authorization": "Bearer ${TOKEN}"}},
	  "fs": {"command": "npx", "args": ["-y", "server-fs", "${HOME}/src", "${EMPTY:-default}", "${UNSET2:-b:-c:-d}"], "env": {"DEBUG": "${UNSET}", "X": "$HOME"}},
	  "old": {"type": "sse", "url": "http://127.0.0.1:9/sse"},
	  "bare": {"url": "http://127.0.0.1:7/mcp"},
	  "alias": {"type": "streamable-http", "url": "http://127.0.0.1:6/mcp"}
	}}`
	got, err := ParseConfig([]byte(data), "x.json", env(map[string]string{"HOME": "/home/u", "TOKEN": "t0k", "EMPTY": ""}))
	if err != nil {
		t.Fatal(err)
	}
	want := []Target{
		{Name: "alias", Source: "x.json", Transport: "http", URL: "http://127.0.0.1:6/mcp"},
		{Name: "bare", Source: "x.json", Transport: "http", URL: "http://127.0.0.1:7/mcp"},
		{Name: "fs", Source: "x.json", Transport: "stdio", Command: "npx", Args: []string{"-y", "server-fs", "/home/u/src", "", "b"}, Env: map[string]string{"DEBUG": "${UNSET}", "X": "$HOME"}, Unset: []string{"UNSET"}, Expanded: []string{"/home/u", ""}},
		{Name: "old", Source: "x.json", Transport: "sse", URL: "http://127.0.0.1:9/sse"},
		{Name: "web", Source: "x.json", Transport: "http", URL: "http://127.0.0.1:8080/mcp", Headers: map[string]string{"Authorization": "Bearer t0k"}, Expanded: []string{"t0k"}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
	for bad, want := range map[string]string{
		`{"mcpServers": {"a": {"type": "stdio"}}}`: "without a command",
		`{"mcpServers": {"a": {"type": "http"}}}`:  "without a url",
		`{"mcpServers": []}`:                       "not an object of servers",
		`{"mcpServers": {}}`:                       "has no servers",
		`{}`:                                       `no "mcpServers" member`,
		`{"servers": {"a": {"command": "x"}}}`:     "VS Code",
		`{"mcp": {"a": {"type": "local"}}}`:        "opencode",
		"[mcp_servers.a]\ncommand = \"x\"":         "TOML",
		`nope`:                                     "invalid character",
	} {
		if _, err := ParseConfig([]byte(bad), "bad.json", env(nil)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseConfig(%s) = %v, want an error with %q", bad, err, want)
		}
	}
}

func TestScan(t *testing.T) {
	home, dir := t.TempDir(), t.TempDir()
	write := func(name, data string) {
		if err := os.WriteFile(name, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(dir, ".mcp.json"), `{"mcpServers":{"proj":{"command":"p"},"both":{"command":"from-project"},"all":{"command":"from-project"}}}`)
	write(filepath.Join(home, ".claude.json"), `{"mcpServers":{"user":{"command":"u"},"both":{"command":"from-user"},"all":{"command":"from-user"}},
	  "projects":{"`+dir+`":{"mcpServers":{"local":{"command":"l"},"all":{"command":"from-local"}}},"/elsewhere":{"mcpServers":{"other":{"command":"o"}}}}}`)
	got, err := Scan(context.Background(), dir, home, env(nil))
	if err != nil {
		t.Fatal(err)
	}
	type row struct {
		Name, Command, Source string
		Shadowed              []string
	}
	var rows []row
	for _, tg := range got {
		rows = append(rows, row{tg.Name, tg.Command, tg.Source, tg.Shadowed})
	}
	user := filepath.Join(home, ".claude.json")
	project, local := filepath.Join(dir, ".mcp.json")+" (project)", user+" (local: "+dir+")"
	// Local over project over user: "all" once, from local; "both" once,
	// from the project.
	want := []row{
		{"all", "from-local", local, []string{project, user + " (user)"}},
		{"local", "l", local, nil},
		{"both", "from-project", project, []string{user + " (user)"}},
		{"proj", "p", project, nil},
		{"user", "u", user + " (user)", nil},
	}
	if diff := cmp.Diff(want, rows); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
	if got, err := Scan(context.Background(), t.TempDir(), t.TempDir(), env(nil)); err != nil || len(got) != 0 {
		t.Errorf("Scan of nothing = %v, %v", got, err)
	}
}

func FuzzParseConfig(f *testing.F) {
	f.Add([]byte(`{"mcpServers":{"a":{"command":"x","args":["${A:-b}"]},"b":{"type":"http","url":"http://h/${B}"}}}`))
	f.Add([]byte(`{}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		ts, err := ParseConfig(data, "f.json", env(map[string]string{"A": "1"}))
		if err != nil {
			return
		}
		for _, tg := range ts {
			if tg.Transport == TransportStdio && tg.Command == "" {
				t.Errorf("stdio target %q without a command", tg.Name)
			}
		}
	})
}
