package probe

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestSpec: a command line's servers, and the conflicts refused before
// any starts, each naming the flag.
func TestSpec(t *testing.T) {
	cfg := filepath.Join(t.TempDir(), ".mcp.json")
	if err := os.WriteFile(cfg, []byte(`{"mcpServers": {"a": {"command": "srv-a"}, "b": {"url": "http://127.0.0.1:1/mcp", "type": "http"}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	sj := filepath.Join(filepath.Dir(cfg), "server.json")
	if err := os.WriteFile(sj, []byte(`{`+head+`, "packages": [{"registryType": "npm", "identifier": "w", "version": "1.0.0", "transport": {"type": "stdio"}}],
	  "remotes": [{"type": "streamable-http", "url": "https://weather.example.com/mcp"}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	getenv := func(string) (string, bool) { return "", false }
	for _, tt := range []struct {
		name string
		spec Spec
		want string // the targets' names, or the error
	}{
		{"command", Spec{Args: []string{"npx", "-y", "@modelcontextprotocol/server-everything"}, DashDash: true}, "server-everything"},
		{"command named", Spec{Args: []string{"node", "x.js"}, DashDash: true, Name: "mine"}, "mine"},
		{"url", Spec{Args: []string{"https://example.test/mcp"}}, "example.test"},
		{"config", Spec{Config: cfg}, "a b"},
		{"config server", Spec{Config: cfg, Server: "b"}, "b"},
		{"not a url", Spec{Args: []string{"node", "x.js"}}, `error: "node" is not an http(s) URL; to check a command, put it after --: instrlab check -- node x.js`},
		{"after the url", Spec{Args: []string{"http://h/mcp", "-json"}}, `error: unexpected argument "-json" after the URL`},
		{"config and scan", Spec{Config: cfg, Scan: true}, "error: -config and -scan are exclusive"},
		{"config and args", Spec{Config: cfg, Args: []string{"x"}}, `error: unexpected argument "x" with -config or -scan`},
		{"name with config", Spec{Config: cfg, Name: "x"}, "error: -name is for a command or URL"},
		{"server alone", Spec{Server: "a", Args: []string{"x"}, DashDash: true}, "error: -server needs -config or -scan"},
		{"nothing", Spec{}, "error: name a server"},
		{"missing config", Spec{Config: cfg + ".nope"}, "error: reading -config:"},
		{"server not in config", Spec{Config: cfg, Server: "c"}, "error: -server:"},
		{"server.json, npm skipped without npx", Spec{ServerJSON: sj, AllowRemote: true}, "weather"},
		{"server.json, its remote off this machine", Spec{ServerJSON: sj}, "error: -server-json: cannot start: nothing in " + sj + " can be started here: packages[0] (npm w@1.0.0): needs npx, which is not on PATH; remotes[0] (streamable-http): weather.example.com is not on this machine"},
		{"headers for a url", Spec{Args: []string{"https://example.test/mcp"}, Headers: map[string]string{"A": "b"}}, "example.test"},
		{"headers with a config", Spec{Config: cfg, Headers: map[string]string{"A": "b"}}, "error: -header is for a URL or a server.json's remotes"},
		{"headers with a command", Spec{Args: []string{"x"}, DashDash: true, Headers: map[string]string{"A": "b"}}, "error: -header is for a URL"},
		{"allow-remote without server.json", Spec{Args: []string{"https://example.test/mcp"}, AllowRemote: true}, "error: -allow-remote is for -server-json"},
		{"server.json and config", Spec{ServerJSON: sj, Config: cfg}, "error: -server-json names the server"},
		{"server.json and a command", Spec{ServerJSON: sj, Args: []string{"x"}, DashDash: true}, "error: -server-json names the server"},
		{"name with server.json", Spec{ServerJSON: sj, Name: "x"}, "error: -name is for a command or URL; -server-json names its server"},
		{"missing server.json", Spec{ServerJSON: sj + ".nope"}, "error: -server-json: invalid server.json"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var got string
			ts, err := []Target(nil), tt.spec.Validate()
			if err == nil {
				ts, _, err = tt.spec.Targets(context.Background(), getenv, func(string) (string, error) { return "", errors.New("no npx") })
			}
			if err != nil {
				got = "error: " + err.Error()
			}
			var names []string
			for _, tg := range ts {
				names = append(names, tg.Name)
			}
			if err == nil {
				got = strings.Join(names, " ")
			}
			if !strings.Contains(got, tt.want) || (err == nil) != !strings.HasPrefix(tt.want, "error:") {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

// TestAddHeader: -header takes NAME: VALUE or NAME=VALUE, once a name,
// and refuses what is not a header.
func TestAddHeader(t *testing.T) {
	var s Spec
	for _, h := range []string{"Authorization: Bearer a=b:c", "X-Key=k:1", " X-Empty : "} {
		if err := s.AddHeader(h); err != nil {
			t.Errorf("AddHeader(%q): %v", h, err)
		}
	}
	want := map[string]string{"Authorization": "Bearer a=b:c", "X-Key": "k:1", "X-Empty": ""}
	if diff := cmp.Diff(want, s.Headers); diff != "" {
		t.Errorf("headers (-want +got):\n%s", diff)
	}
	for h, why := range map[string]string{
		"no separator":         "is not NAME: VALUE",
		": no name":            "is not NAME: VALUE",
		"Bad Name: v":          "is not a header name",
		"X: a\r\nInjected: b":  "line break",
		"Authorization: again": "given twice",
	} {
		if err := s.AddHeader(h); err == nil || !strings.Contains(err.Error(), why) {
			t.Errorf("AddHeader(%q): error %v, want one saying %q", h, err, why)
		}
	}
}

// TestSpecConfigStartDir: a config's stdio servers start in the config's
// directory, as run starts them (StartDir).
func TestSpecConfigStartDir(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, ".mcp.json")
	if err := os.WriteFile(cfg, []byte(`{"mcpServers": {"a": {"command": "srv-a"}, "b": {"command": "srv-b"}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	ts, _, err := Spec{Config: cfg}.Targets(context.Background(), func(string) (string, bool) { return "", false }, nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, tg := range ts {
		got = append(got, tg.Name+" "+tg.Dir)
	}
	want := []string{"a " + dir, "b " + dir}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("start directories %q, want %q", got, want)
	}
}
