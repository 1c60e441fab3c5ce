package probe

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/instrlab/instrlab/internal/cli"
)

// A Spec is which servers to check, as check's command line names them:
// a command (Args after "--"), a Streamable HTTP URL (Args), the servers
// of a config file (Config), those Claude Code would start here (Scan),
// or those an MCP registry server.json describes (ServerJSON); Server
// picks one of a config's by name, Name names a command's or a URL's
// server.
type Spec struct {
	Args       []string
	DashDash   bool // Args came after "--": a command and its arguments
	Config     string
	Scan       bool
	ServerJSON string
	Server     string
	Name       string
	// Headers are sent to a URL's server, and fill the headers a
	// server.json's remotes list (check's -header); AllowRemote probes
	// a server.json's remotes off this machine.
	Headers     map[string]string
	AllowRemote bool
}

// AddHeader adds a header given as "Name: value" (or Name=value) to
// Headers: check's -header.
func (s *Spec) AddHeader(h string) error {
	i := strings.IndexAny(h, ":=")
	if i <= 0 {
		return fmt.Errorf("%q is not NAME: VALUE", h)
	}
	name, value := strings.TrimSpace(h[:i]), strings.TrimSpace(h[i+1:])
	if !onlyOf(name, "!#$%&'*+-.^_`|~") {
		return fmt.Errorf("%q is not a header name", name)
	}
	if strings.ContainsAny(value, "\r\n\x00") {
		return fmt.Errorf("the value of %s holds a line break or NUL", name)
	}
	if _, ok := s.Headers[name]; ok {
		return fmt.Errorf("header %s is given twice", name)
	}
	if s.Headers == nil {
		s.Headers = map[string]string{}
	}
	s.Headers[name] = value
	return nil
}

// Validate rejects a Spec whose parts conflict or that names no server,
// before any server starts; each error names the flag at fault.
func (s Spec) Validate() error {
	switch {
	case s.ServerJSON != "" && (s.Config != "" || s.Scan || len(s.Args) > 0):
		return errors.New("-server-json names the server: no -config, -scan, command or URL with it")
	case s.Config != "" && s.Scan:
		return errors.New("-config and -scan are exclusive")
	case (s.Config != "" || s.Scan) && len(s.Args) > 0:
		return fmt.Errorf("unexpected argument %q with -config or -scan", s.Args[0])
	case s.Name != "" && (s.Config != "" || s.Scan):
		return errors.New("-name is for a command or URL; -config and -scan name their servers")
	case s.Name != "" && s.ServerJSON != "":
		return errors.New("-name is for a command or URL; -server-json names its server")
	case s.Server != "" && s.Config == "" && !s.Scan:
		return errors.New("-server needs -config or -scan")
	case len(s.Headers) > 0 && (s.Config != "" || s.Scan || s.DashDash):
		return errors.New("-header is for a URL or a server.json's remotes; a config names its servers' headers")
	case s.AllowRemote && s.ServerJSON == "":
		return errors.New("-allow-remote is for -server-json's remotes (a URL given is probed wherever it is)")
	case s.Config == "" && !s.Scan && s.ServerJSON == "" && len(s.Args) == 0:
		return errors.New("name a server: -- COMMAND [ARGS...], a URL, -config FILE, -scan or -server-json FILE")
	case s.DashDash || len(s.Args) == 0:
		return nil
	}
	u, err := url.Parse(s.Args[0])
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("%q is not an http(s) URL; to check a command, put it after --: instrlab check -- %s", s.Args[0], strings.Join(s.Args, " "))
	}
	if len(s.Args) > 1 {
		return fmt.Errorf("unexpected argument %q after the URL (flags go before it)", s.Args[1])
	}
	return nil
}

// Targets are the servers a valid Spec names, with their config's
// ${VAR}s expanded by getenv, and what a server.json describes that
// cannot start here (skipped; lookPath finds npx). An error is the
// user's: a config that cannot be read as a client reads it, a -server
// not in it, nothing configured.
func (s Spec) Targets(ctx context.Context, getenv func(string) (string, bool), lookPath func(string) (string, error)) (ts []Target, skipped []string, err error) {
	switch {
	case s.ServerJSON != "":
		if ts, skipped, err = ReadServerJSON(s.ServerJSON, Given{Getenv: getenv, LookPath: lookPath, Headers: s.Headers, AllowRemote: s.AllowRemote}); err != nil {
			return nil, nil, fmt.Errorf("-server-json: %w", err)
		}
	case s.DashDash:
		dir, err := os.Getwd()
		if err != nil {
			return nil, nil, fmt.Errorf("the working directory: %w", err)
		}
		name, from := ServerName(dir, s.Args[0], s.Args[1:])
		ts = []Target{{Name: name, NameFrom: from, Transport: TransportStdio, Command: s.Args[0], Args: s.Args[1:]}}
	case len(s.Args) > 0:
		u, _ := url.Parse(s.Args[0]) // Validate parsed it
		ts = []Target{{Name: u.Host, Transport: TransportHTTP, URL: s.Args[0], Headers: s.Headers}}
	case s.Config != "":
		data, err := cli.ReadFile(ctx, s.Config, cli.MaxConfig)
		if err != nil {
			return nil, nil, fmt.Errorf("reading -config: %w", err)
		}
		if ts, err = ParseConfig(data, s.Config, getenv); err != nil {
			return nil, nil, fmt.Errorf("-config: %w", err)
		}
		for i := range ts {
			if ts[i].Dir, err = StartDir(ts[i], s.Config); err != nil {
				return nil, nil, fmt.Errorf("-config: %w", err)
			}
		}
	default:
		if ts, err = scan(ctx, getenv); err != nil {
			return nil, nil, fmt.Errorf("-scan: %w", err)
		}
	}
	if s.Name != "" {
		ts[0].Name, ts[0].NameFrom = s.Name, ""
	}
	if s.Server != "" {
		if ts, err = Select(ts, s.Server); err != nil {
			return nil, nil, fmt.Errorf("-server: %w", err)
		}
	}
	if len(ts) == 0 {
		return nil, nil, errors.New("no MCP servers configured")
	}
	return ts, skipped, nil
}

// scan is Scan of the working directory and the home directory, an error
// when it finds nothing.
func scan(ctx context.Context, getenv func(string) (string, bool)) ([]Target, error) {
	dir, err := os.Getwd()
	if err != nil {
		return nil, err
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return nil, err
	}
	ts, err := Scan(ctx, dir, home, getenv)
	if err == nil && len(ts) == 0 {
		err = fmt.Errorf("no MCP servers configured for Claude Code in %s or %s (user and local scopes)",
			filepath.Join(dir, ".mcp.json"), filepath.Join(home, ".claude.json"))
	}
	return ts, err
}
