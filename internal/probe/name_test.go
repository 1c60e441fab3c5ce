package probe

import "testing"

func TestCommandName(t *testing.T) {
	for _, tt := range []struct {
		cmd  string
		args []string
		want string
	}{
		{"/usr/local/bin/my-server", nil, "my-server"},
		{"npx", []string{"-y", "@modelcontextprotocol/server-filesystem@2026.8.31", "/tmp"}, "server-filesystem"},
		{"node", []string{"/home/me/notes-server/build/index.js"}, "notes-server"},
		{"node", []string{"dist/weather.js"}, "weather"},
		{"/x/node_modules/.bin/node", []string{"/x/node_modules/@modelcontextprotocol/server-everything/dist/index.js", "stdio"}, "server-everything"},
		{"uvx", []string{"mcp-server-git==1.2", "--repo", "."}, "mcp-server-git"},
		{"python3", []string{"-m", "server.py"}, "server"},
		{"docker", []string{"run", "-i", "--rm", "-e", "GITHUB_TOKEN", "ghcr.io/github/github-mcp-server:v1"}, "github-mcp-server"},
		{"env", []string{"FOO=1", "node", "srv/weather/main.js"}, "weather"},
		{`C:\tools\npx.exe`, []string{"-y", "mcp-remote"}, "mcp-remote"},
		{"npx", nil, "npx"},
	} {
		if got := CommandName(tt.cmd, tt.args); got != tt.want {
			t.Errorf("CommandName(%q, %q) = %q, want %q", tt.cmd, tt.args, got, tt.want)
		}
	}
}
