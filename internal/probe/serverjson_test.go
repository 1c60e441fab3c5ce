package probe

import (
	"errors"
	"os/exec"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func lookIn(have ...string) func(string) (string, error) {
	return func(name string) (string, error) {
		for _, h := range have {
			if h == name {
				return "/usr/bin/" + name, nil
			}
		}
		return "", exec.ErrNotFound
	}
}

func envOf(kv ...string) func(string) (string, bool) {
	return func(k string) (string, bool) {
		for i := 0; i+1 < len(kv); i += 2 {
			if kv[i] == k {
				return kv[i+1], true
			}
		}
		return "", false
	}
}

const head = `"$schema": "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json",
  "name": "io.github.example/weather", "description": "Weather", "version": "1.2.0"`

func TestParseServerJSON(t *testing.T) {
	tests := []struct {
		name    string
		json    string
		env     []string
		given   Given // its Headers and AllowRemote
		want    []Target
		skipped []string
	}{
		{
			name: "an npm package through npx, with arguments and environment",
			json: `{` + head + `, "packages": [{"registryType": "npm", "identifier": "@example/weather-mcp", "version": "1.2.0",
			  "transport": {"type": "stdio"},
			  "runtimeArguments": [{"type": "named", "name": "--node-options", "value": "--max-old-space-size={mem}", "variables": {"mem": {"default": "512"}}}],
			  "packageArguments": [{"type": "positional", "value": "serve"}, {"type": "named", "name": "--units", "default": "metric"},
			    {"type": "named", "name": "--verbose"}],
			  "environmentVariables": [{"name": "WEATHER_KEY", "isRequired": true, "isSecret": true}, {"name": "LOG_LEVEL", "default": "info"}, {"name": "OPTIONAL"}]}]}`,
			env: []string{"WEATHER_KEY", "k-123"},
			want: []Target{{Name: "weather", Source: "server.json packages[0] (npm @example/weather-mcp@1.2.0)", Transport: TransportStdio, Command: "npx",
				Args: []string{"-y", "--node-options", "--max-old-space-size=512", "@example/weather-mcp@1.2.0", "serve", "--units", "metric"},
				Env:  map[string]string{"WEATHER_KEY": "k-123", "LOG_LEVEL": "info"}}},
		},
		{
			name: "a remote, allowed, and a PyPI package that cannot start here",
			json: `{` + head + `, "packages": [{"registryType": "pypi", "identifier": "weather-mcp", "version": "1.2.0", "runtimeHint": "uvx", "transport": {"type": "stdio"}}],
			  "remotes": [{"type": "streamable-http", "url": "https://weather.example.com/mcp", "headers": [{"name": "X-Region", "default": "eu"}]}]}`,
			given: Given{AllowRemote: true},
			want: []Target{{Name: "weather", Source: "server.json remotes[0] (streamable-http)", Transport: TransportHTTP, URL: "https://weather.example.com/mcp",
				Headers: map[string]string{"X-Region": "eu"}}},
			skipped: []string{"packages[0] (pypi weather-mcp@1.2.0): needs uvx, which is not on PATH"},
		},
		{
			name: "a remote off this machine is named and skipped unless allowed",
			json: `{` + head + `, "packages": [{"registryType": "npm", "identifier": "w", "version": "1.0.0", "transport": {"type": "stdio"}}],
			  "remotes": [{"type": "streamable-http", "url": "https://weather.example.com/mcp"}, {"type": "streamable-http", "url": "http://127.0.0.1:8080/mcp"}, {"type": "sse", "url": "http://[::1]:9/sse"}, {"type": "sse", "url": "http://localhost/sse"}]}`,
			want: []Target{
				{Name: "weather-1", Source: "server.json packages[0] (npm w@1.0.0)", Transport: TransportStdio, Command: "npx", Args: []string{"-y", "w@1.0.0"}, Env: map[string]string{}},
				{Name: "weather-2", Source: "server.json remotes[1] (streamable-http)", Transport: TransportHTTP, URL: "http://127.0.0.1:8080/mcp", Headers: map[string]string{}},
				{Name: "weather-3", Source: "server.json remotes[2] (sse)", Transport: "sse", URL: "http://[::1]:9/sse", Headers: map[string]string{}},
				{Name: "weather-4", Source: "server.json remotes[3] (sse)", Transport: "sse", URL: "http://localhost/sse", Headers: map[string]string{}},
			},
			skipped: []string{"remotes[0] (streamable-http): weather.example.com is not on this machine: check probes a server.json's remotes on loopback only, unless -allow-remote"},
		},
		{
			// A hostile file names HOME or a token's variable as a header:
			// its value is never read from the environment and sent.
			name: "a header's value comes from -header, never from the environment",
			json: `{` + head + `, "remotes": [{"type": "streamable-http", "url": "http://127.0.0.1:1/mcp", "headers": [{"name": "HOME", "isRequired": true}, {"name": "GITHUB_TOKEN"}]},
			  {"type": "streamable-http", "url": "http://127.0.0.1:2/mcp", "headers": [{"name": "Authorization", "isRequired": true}]}]}`,
			env:   []string{"HOME", "/root", "GITHUB_TOKEN", "ghp_secret", "Authorization", "Bearer from-env"},
			given: Given{Headers: map[string]string{"Authorization": "Bearer given"}},
			want: []Target{{Name: "weather", Source: "server.json remotes[1] (streamable-http)", Transport: TransportHTTP, URL: "http://127.0.0.1:2/mcp",
				Headers: map[string]string{"Authorization": "Bearer given"}}},
			skipped: []string{"remotes[0] (streamable-http): header HOME is required and has no value: give it with -header 'HOME: VALUE'"},
		},
		{
			name: "two that start are numbered",
			json: `{` + head + `, "packages": [{"registryType": "npm", "identifier": "w", "version": "1.0.0", "transport": {"type": "stdio"}}],
			  "remotes": [{"type": "sse", "url": "http://127.0.0.1/sse"}]}`,
			want: []Target{
				{Name: "weather-1", Source: "server.json packages[0] (npm w@1.0.0)", Transport: TransportStdio, Command: "npx", Args: []string{"-y", "w@1.0.0"}, Env: map[string]string{}},
				{Name: "weather-2", Source: "server.json remotes[0] (sse)", Transport: "sse", URL: "http://127.0.0.1/sse", Headers: map[string]string{}},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := tt.given
			g.Getenv, g.LookPath = envOf(tt.env...), lookIn("npx")
			got, skipped, err := ParseServerJSON([]byte(tt.json), "server.json", g)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("targets mismatch (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.skipped, skipped); diff != "" {
				t.Errorf("skipped mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestParseServerJSONBad: an invalid server.json, or one of which nothing
// can start here, is an error that says why (check exits 2).
func TestParseServerJSONBad(t *testing.T) {
	tests := []struct {
		name, json string
		is         error
		want       string
	}{
		{"not JSON", `{"name": `, ErrServerJSON, "unexpected EOF"},
		{"not an object", `[1, 2]`, ErrServerJSON, "cannot unmarshal array"},
		{"fields missing", `{"packages": []}`, ErrServerJSON, "name is missing; description is missing; version is missing; neither packages nor remotes"},
		{"a name without a namespace", `{"name": "weather", "description": "d", "version": "1", "remotes": [{"type": "sse", "url": "https://x/sse"}]}`, ErrServerJSON, `name "weather" is not namespace/name`},
		{"a package version latest", `{` + head + `, "packages": [{"registryType": "npm", "identifier": "w", "version": "latest", "transport": {"type": "stdio"}}]}`, ErrServerJSON, "not latest"},
		{"a package without transport", `{` + head + `, "packages": [{"registryType": "npm", "identifier": "w", "version": "1.0.0"}]}`, ErrServerJSON, "transport.type is missing"},
		{"PyPI without uvx", `{` + head + `, "packages": [{"registryType": "pypi", "identifier": "w", "version": "1.0.0", "transport": {"type": "stdio"}}]}`, ErrCannotStart, "needs uvx, which is not on PATH"},
		{"an OCI image without docker", `{` + head + `, "packages": [{"registryType": "oci", "identifier": "ghcr.io/x/w:1", "transport": {"type": "stdio"}}]}`, ErrCannotStart, "needs docker"},
		{"a bundle", `{` + head + `, "packages": [{"registryType": "mcpb", "identifier": "https://x/w.mcpb", "version": "1.0.0", "transport": {"type": "stdio"}}]}`, ErrCannotStart, "does not start bundles"},
		{"a package over HTTP", `{` + head + `, "packages": [{"registryType": "npm", "identifier": "w", "version": "1.0.0", "transport": {"type": "streamable-http", "url": "http://localhost:{port}/mcp"}}]}`, ErrCannotStart, "stdio packages only"},
		{"a required variable unset", `{` + head + `, "packages": [{"registryType": "npm", "identifier": "w", "version": "1.0.0", "transport": {"type": "stdio"}, "environmentVariables": [{"name": "API_KEY", "isRequired": true}]}]}`, ErrCannotStart, "API_KEY is required"},
		{"a required argument without value", `{` + head + `, "packages": [{"registryType": "npm", "identifier": "w", "version": "1.0.0", "transport": {"type": "stdio"}, "packageArguments": [{"type": "positional", "valueHint": "dir", "isRequired": true}]}]}`, ErrCannotStart, "packageArguments[0] (dir) is required"},
		{"a remote URL with variables", `{` + head + `, "remotes": [{"type": "streamable-http", "url": "https://{tenant}.example.com/mcp"}]}`, ErrCannotStart, "variables a user supplies"},
		{"too large", `{"name": "` + strings.Repeat("x", MaxServerJSON) + `"}`, ErrServerJSON, "over 1048576 bytes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := ParseServerJSON([]byte(tt.json), "server.json", Given{Getenv: envOf(), LookPath: lookIn("npx"), AllowRemote: true})
			if !errors.Is(err, tt.is) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want %v naming %q", err, tt.is, tt.want)
			}
		})
	}
}

func FuzzParseServerJSON(f *testing.F) {
	f.Add([]byte(`{` + head + `, "packages": [{"registryType": "npm", "identifier": "w", "version": "1.0.0", "transport": {"type": "stdio"}}]}`))
	f.Add([]byte(`{` + head + `, "remotes": [{"type": "streamable-http", "url": "https://x/mcp", "headers": [{"name": "A", "value": "{v}", "variables": {"v": {"default": "1"}}}]}]}`))
	f.Add([]byte(`{"name": "a/b"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		ts, _, err := ParseServerJSON(data, "f", Given{Getenv: envOf(), LookPath: lookIn("npx", "uvx", "docker")})
		if err == nil && len(ts) == 0 {
			t.Fatal("no error and no target")
		}
		if err != nil && !errors.Is(err, ErrServerJSON) && !errors.Is(err, ErrCannotStart) {
			t.Fatalf("error %v is neither ErrServerJSON nor ErrCannotStart", err)
		}
	})
}
