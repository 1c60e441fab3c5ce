package probe

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func env(m map[string]string) func(string) (string, bool) {
	return func(k string) (string, bool) { v, ok := m[k]; return v, ok }
}

func TestParseConfig(t *testing.T) {
	data := `{"mcpServers": {
	  "web": {"type": "http", "url": "http://127.0.0.1:${PORT:-8080}/mcp", "headers": {"Authorization": "Bearer ${TOKEN}"}},
	  "fs": {"command": "npx", "args": ["-y", "server-fs", "${HOME}/src"], "env": {"DEBUG": "${UNSET}"}},
	  "old": {"type": "sse", "url": "http://127.0.0.1:9/sse"},
	  "bare": {"url": "http://127.0.0.1:7/mcp"},
	  "alias": {"type": "streamable-http", "url": "http://127.0.0.1:6/mcp"}
	}}`
	got, err := ParseConfig([]byte(data), "x.json", env(map[string]string{"HOME": "/home/u", "TOKEN": "t0k"}))
	if err != nil {
		t.Fatal(err)
	}
	want := []Target{
		{Name: "alias", Source: "x.json", Transport: "http", URL: "http://127.0.0.1:6/mcp"},
		{Name: "bare", Source: "x.json", Transport: "http", URL: "http://127.0.0.1:7/mcp"},
		{Name: "fs", Source: "x.json", Transport: "stdio", Command: "npx", Args: []string{"-y", "server-fs", "/home/u/src"}, Env: map[string]string{"DEBUG": "${UNSET}"}},
		{Name: "old", Source: "x.json", Transport: "sse", URL: "http://127.0.0.1:9/sse"},
		{Name: "web", Source: "x.json", Transport: "http", URL: "http://127.0.0.1:8080/mcp", Headers: map[string]string{"Authorization": "Bearer t0k"}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
	for _, bad := range []string{`{"mcpServers": {"a": {"type": "stdio"}}}`, `{"mcpServers": {"a": {"type": "http"}}}`, `{"mcpServers": []}`, `nope`} {
		if _, err := ParseConfig([]byte(bad), "bad.json", env(nil)); err == nil {
			t.Errorf("ParseConfig(%s) succeeded", bad)
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
	write(filepath.Join(dir, ".mcp.json"), `{"mcpServers":{"proj":{"command":"p"}}}`)
	write(filepath.Join(home, ".claude.json"), `{"mcpServers":{"user":{"command":"u"}},
	  "projects":{"`+dir+`":{"mcpServers":{"local":{"command":"l"}}},"/elsewhere":{"mcpServers":{"other":{"command":"o"}}}}}`)
	got, err := Scan(dir, home, env(nil))
	if err != nil {
		t.Fatal(err)
	}
	var names, sources []string
	for _, tg := range got {
		names, sources = append(names, tg.Name), append(sources, tg.Source)
	}
	user := filepath.Join(home, ".claude.json")
	want := []string{filepath.Join(dir, ".mcp.json") + " (project)", user + " (user)", user + " (local: " + dir + ")"}
	if diff := cmp.Diff([]string{"proj", "user", "local"}, names); diff != "" {
		t.Errorf("names mismatch (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(want, sources); diff != "" {
		t.Errorf("sources mismatch (-want +got):\n%s", diff)
	}
	if got, err := Scan(t.TempDir(), t.TempDir(), env(nil)); err != nil || len(got) != 0 {
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
