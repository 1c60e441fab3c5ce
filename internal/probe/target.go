package probe

import (
	"fmt"
	"path/filepath"
	"strings"
)

// Transports a target may use.
const (
	TransportStdio = "stdio"
	TransportHTTP  = "http"
)

// A Target is one server to check: a command to spawn or a URL.
type Target struct {
	Name string `json:"name"`
	// NameFrom is the package.json the name was taken from, when the
	// command's own name said nothing (ServerName); "" otherwise.
	NameFrom string `json:"name_from,omitempty"`
	// Source says where the server was configured, e.g.
	// "/home/u/proj/.mcp.json (project)"; empty on the command line.
	Source    string            `json:"source,omitempty"`
	Transport string            `json:"transport"` // stdio, http, or what a config said (e.g. sse)
	Command   string            `json:"command,omitempty"`
	Args      []string          `json:"args,omitempty"`
	Env       map[string]string `json:"-"` // never printed: configs keep secrets here
	Dir       string            `json:"dir,omitempty"`
	// EnvNames are the names of the variables a stdio server was started
	// with (the caller's environment and Env), never their values; run
	// records its own the same way (fingerprint.EnvNames).
	EnvNames []string          `json:"env_names,omitempty"`
	URL      string            `json:"url,omitempty"`
	Headers  map[string]string `json:"-"` // never printed, as Env
	// Unset lists the variables of ${VAR} references that were not set
	// and had no default: left as written, as the client leaves them.
	Unset []string `json:"unset_variables,omitempty"`
	// Expanded are the values the config's ${VAR} references took from
	// the environment: never printed, hidden wherever they appear.
	Expanded []string `json:"-"`
	// Shadowed lists where else a server of this name is configured, in
	// scopes the client's precedence puts below Source (-scan only).
	Shadowed []string `json:"shadowed,omitempty"`
}

// String describes t in one line.
func (t Target) String() string {
	switch t.Transport {
	case TransportStdio:
		return "stdio: " + strings.Join(append([]string{t.Command}, t.Args...), " ")
	case TransportHTTP:
		return "http: " + t.URL
	}
	return fmt.Sprintf("%s: %s", t.Transport, t.URL)
}

// StartDir is the directory t starts in, as run and check both start it:
// its own cwd (relative to the config's directory), else the directory
// of the config file config (a project's .mcp.json starts its servers in
// the project), absolute so that it does not depend on who starts it.
func StartDir(t Target, config string) (string, error) {
	dir := t.Dir
	switch {
	case dir == "":
		dir = filepath.Dir(config)
	case !filepath.IsAbs(dir):
		dir = filepath.Join(filepath.Dir(config), dir)
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", fmt.Errorf("server %q: its directory: %w", t.Name, err)
	}
	return abs, nil
}
