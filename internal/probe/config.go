package probe

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
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
// as Claude Code does.
func ParseConfig(data []byte, source string, getenv func(string) (string, bool)) ([]Target, error) {
	var doc struct {
		MCPServers map[string]json.RawMessage `json:"mcpServers"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("%s: %w", source, err)
	}
	return targets(doc.MCPServers, source, getenv)
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
	x := func(v string) string { return expand(v, getenv) }
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
	return t, nil
}

var envRef = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\$\{([A-Za-z_][A-Za-z0-9_]*)(:-([^}]*))?\}`) })

// expand replaces ${VAR} and ${VAR:-default}; an unset VAR without a
// default is left as written, so the finding shows it.
func expand(s string, getenv func(string) (string, bool)) string {
	return envRef().ReplaceAllStringFunc(s, func(m string) string {
		g := envRef().FindStringSubmatch(m)
		if v, ok := getenv(g[1]); ok && v != "" {
			return v
		}
		if g[2] != "" {
			return g[3]
		}
		return m
	})
}

// Scan finds the servers a user configured for Claude Code in dir: the
// project scope (dir/.mcp.json), and in home/.claude.json the user scope
// (mcpServers) and the local scope (projects[dir].mcpServers). A missing
// file is no error; every server names its file and scope.
func Scan(dir, home string, getenv func(string) (string, bool)) ([]Target, error) {
	var out []Target
	project := filepath.Join(dir, ".mcp.json")
	if data, err := os.ReadFile(project); err == nil {
		ts, err := ParseConfig(data, project+" (project)", getenv)
		if err != nil {
			return nil, err
		}
		out = append(out, ts...)
	} else if !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("scanning: %w", err)
	}
	user := filepath.Join(home, ".claude.json")
	data, err := os.ReadFile(user)
	if errors.Is(err, os.ErrNotExist) {
		return out, nil
	} else if err != nil {
		return nil, fmt.Errorf("scanning: %w", err)
	}
	var doc struct {
		MCPServers map[string]json.RawMessage `json:"mcpServers"`
		Projects   map[string]struct {
			MCPServers map[string]json.RawMessage `json:"mcpServers"`
		} `json:"projects"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("%s: %w", user, err)
	}
	ts, err := targets(doc.MCPServers, user+" (user)", getenv)
	if err != nil {
		return nil, err
	}
	out = append(out, ts...)
	if p, ok := doc.Projects[dir]; ok {
		ts, err := targets(p.MCPServers, user+" (local: "+dir+")", getenv)
		if err != nil {
			return nil, err
		}
		out = append(out, ts...)
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
