package probe

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/instrlab/instrlab/internal/cli"
)

// A config entry as Claude Code writes it in .mcp.json and ~/.claude.json.
type configServer struct {
	Type    string            `json:"type"`
	Command string            `json:"command"`
	Args    []string          `json:"args"`
	Env     map[string]string `json:"env"`
	URL     string            `json:"url"`
	Headers map[string]string `json:"headers"`
}

// ParseConfig reads the servers of a Claude Code style MCP config: an
// object whose "mcpServers" maps names to servers. source names the file in
// the targets. Servers come out sorted by name; ${VAR} and ${VAR:-default}
// in commands, arguments, env, URLs and headers are expanded with getenv,
// as Claude Code does (see expand). A config without servers, or in another
// client's format, is an error that names the format.
func ParseConfig(data []byte, source string, getenv func(string) (string, bool)) ([]Target, error) {
	servers, err := parseServers(data, source)
	if err != nil {
		return nil, err
	}
	if len(servers) == 0 {
		return nil, fmt.Errorf("%s: \"mcpServers\" has no servers", source)
	}
	return targets(servers, source, getenv)
}

// ErrNoServers reports a config file without an "mcpServers" member.
var ErrNoServers = errors.New(`no "mcpServers" member: check reads Claude Code's format, {"mcpServers": {"NAME": {"command": ...}}}`)

// otherFormats are the top-level members other clients keep their MCP
// servers under, by client.
var otherFormats = []struct{ key, client string }{
	{"servers", `VS Code (.vscode/mcp.json, "servers")`},
	{"mcp", `opencode ("mcp")`},
	{"context_servers", `Zed ("context_servers")`},
	{"mcp_servers", `Codex ("mcp_servers")`},
	{"extensions", `Goose ("extensions")`},
}

// parseServers returns the "mcpServers" member of a config; nil when the
// member is there but empty.
func parseServers(data []byte, source string) (map[string]json.RawMessage, error) {
	if t := bytes.TrimSpace(data); bytes.HasPrefix(t, []byte("[mcp_servers")) || bytes.HasPrefix(t, []byte("#")) {
		return nil, fmt.Errorf("%s: this looks like TOML (Codex's config.toml); %w", source, ErrNoServers)
	}
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("%s: %w", source, err)
	}
	raw, ok := doc["mcpServers"]
	if !ok {
		for _, f := range otherFormats {
			if _, ok := doc[f.key]; ok {
				return nil, fmt.Errorf("%s: this looks like a config of %s; %w", source, f.client, ErrNoServers)
			}
		}
		return nil, fmt.Errorf("%s: %w", source, ErrNoServers)
	}
	var servers map[string]json.RawMessage
	if err := json.Unmarshal(raw, &servers); err != nil {
		return nil, fmt.Errorf("%s: \"mcpServers\" is not an object of servers: %w", source, err)
	}
	return servers, nil
}

func targets(servers map[string]json.RawMessage, source string, getenv func(string) (string, bool)) ([]Target, error) {
	names := make([]string, 0, len(servers))
	for n := range servers {
		names = append(names, n)
	}
	slices.Sort(names)
	var out []Target
	for _, name := range names {
		var s configServer
		if err := json.Unmarshal(servers[name], &s); err != nil {
			return nil, fmt.Errorf("%s: server %q: %w", source, name, err)
		}
		t, err := s.target(name, source, getenv)
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, nil
}

func (s configServer) target(name, source string, getenv func(string) (string, bool)) (Target, error) {
	var unset, expanded []string
	// The values ${VAR}s take are the environment's: hidden wherever they
	// are printed (Target.Redactor), as a config's env values are.
	seen := func(name string) (string, bool) {
		v, ok := getenv(name)
		if ok && !slices.Contains(expanded, v) {
			expanded = append(expanded, v)
		}
		return v, ok
	}
	x := func(v string) string {
		out, missing := expand(v, seen)
		for _, m := range missing {
			if !slices.Contains(unset, m) {
				unset = append(unset, m)
			}
		}
		return out
	}
	t := Target{Name: name, Source: source, Transport: s.Type}
	if t.Transport == "streamable-http" || t.Transport == "streamableHttp" {
		t.Transport = TransportHTTP
	}
	if t.Transport == "" {
		t.Transport = TransportStdio
		if s.Command == "" && s.URL != "" {
			t.Transport = TransportHTTP
		}
	}
	switch t.Transport {
	case TransportStdio:
		if s.Command == "" {
			return Target{}, fmt.Errorf("%s: server %q: stdio server without a command", source, name)
		}
		t.Command = x(s.Command)
		for _, a := range s.Args {
			t.Args = append(t.Args, x(a))
		}
		if len(s.Env) > 0 {
			t.Env = map[string]string{}
			for k, v := range s.Env {
				t.Env[k] = x(v)
			}
		}
	default: // http, and sse which check reports as unsupported
		if s.URL == "" {
			return Target{}, fmt.Errorf("%s: server %q: %s server without a url", source, name, t.Transport)
		}
		t.URL = x(s.URL)
		if len(s.Headers) > 0 {
			t.Headers = map[string]string{}
			for k, v := range s.Headers {
				t.Headers[k] = x(v)
			}
		}
	}
	slices.Sort(unset)
	t.Unset, t.Expanded = unset, expanded
	return t, nil
}

var envRef = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\$\{([^}]+)\}`) })

// expand replaces ${VAR} and ${VAR:-default} as Claude Code does
// (services/mcp/envExpansion.ts): a VAR that is set, even to "", gives
// its value; an unset one its default; an unset one without a default is
// left as written, and Claude Code passes it on so, reporting it as an
// error: missing lists those, for check to report the same. $VAR is never
// expanded.
func expand(s string, getenv func(string) (string, bool)) (out string, missing []string) {
	out = envRef().ReplaceAllStringFunc(s, func(m string) string {
		name, def, hasDef := strings.Cut(m[2:len(m)-1], ":-")
		def, _, _ = strings.Cut(def, ":-") // JavaScript's split(":-", 2) drops the rest
		if v, ok := getenv(name); ok {
			return v
		}
		if hasDef {
			return def
		}
		missing = append(missing, name)
		return m
	})
	return out, missing
}

// Scan finds the servers a user configured for Claude Code in dir: the
// local scope (projects[dir].mcpServers in home/.claude.json), the project
// scope (dir/.mcp.json) and the user scope (mcpServers in
// home/.claude.json). A server of one name in several scopes is checked
// once, as Claude Code uses it: local over project over user; the others
// are listed in its Shadowed. Servers come out in that order of scopes,
// sorted by name in each. A missing file is no error, nor is a file with
// no servers; every server names its file and scope. Each file is read
// bounded and cancellable (cli.ReadFile).
func Scan(ctx context.Context, dir, home string, getenv func(string) (string, bool)) ([]Target, error) {
	project := filepath.Join(dir, ".mcp.json")
	user := filepath.Join(home, ".claude.json")
	var scopes [3][]Target // local, project, user
	if data, err := cli.ReadFile(ctx, project, cli.MaxConfig); err == nil {
		servers, err := parseServers(data, project)
		if err != nil && !errors.Is(err, ErrNoServers) {
			return nil, err
		}
		if scopes[1], err = targets(servers, project+" (project)", getenv); err != nil {
			return nil, err
		}
	} else if !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("scanning: %w", err)
	}
	data, err := cli.ReadFile(ctx, user, cli.MaxConfig)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("scanning: %w", err)
	}
	if err == nil {
		var doc struct {
			MCPServers map[string]json.RawMessage `json:"mcpServers"`
			Projects   map[string]struct {
				MCPServers map[string]json.RawMessage `json:"mcpServers"`
			} `json:"projects"`
		}
		if err := json.Unmarshal(data, &doc); err != nil {
			return nil, fmt.Errorf("%s: %w", user, err)
		}
		if scopes[2], err = targets(doc.MCPServers, user+" (user)", getenv); err != nil {
			return nil, err
		}
		if p, ok := doc.Projects[dir]; ok {
			if scopes[0], err = targets(p.MCPServers, user+" (local: "+dir+")", getenv); err != nil {
				return nil, err
			}
		}
	}
	var out []Target
	index := map[string]int{}
	for _, ts := range scopes {
		for _, t := range ts {
			if i, ok := index[t.Name]; ok {
				out[i].Shadowed = append(out[i].Shadowed, t.Source)
				continue
			}
			index[t.Name] = len(out)
			out = append(out, t)
		}
	}
	return out, nil
}

// Select keeps the target named name; it is an error if there is none.
func Select(ts []Target, name string) ([]Target, error) {
	var names []string
	for _, t := range ts {
		if t.Name == name {
			return []Target{t}, nil
		}
		names = append(names, t.Name)
	}
	return nil, fmt.Errorf("no server %q in the config (have %s)", name, strings.Join(names, ", "))
}
