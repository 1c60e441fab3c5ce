package probe

import (
	"os"
	"path/filepath"
	"testing"
)

// TestStartDir: a config's server starts in its own cwd, relative to the
// config's directory, else in the config's directory; always absolute.
func TestStartDir(t *testing.T) {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	abs := filepath.Join(t.TempDir(), "srv")
	for _, tt := range []struct {
		name, dir, config, want string
	}{
		{"the config's directory", "", filepath.Join("proj", ".mcp.json"), filepath.Join(wd, "proj")},
		{"a config here", "", ".mcp.json", wd},
		{"cwd relative to the config", "server", filepath.Join("proj", ".mcp.json"), filepath.Join(wd, "proj", "server")},
		{"an absolute cwd", abs, filepath.Join("proj", ".mcp.json"), abs},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, err := StartDir(Target{Name: "s", Dir: tt.dir}, tt.config)
			if err != nil || got != tt.want {
				t.Errorf("StartDir(%q, %q) = %q, %v; want %q", tt.dir, tt.config, got, err, tt.want)
			}
		})
	}
}
