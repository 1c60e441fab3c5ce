package runner

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/instrlab/instrlab/internal/cli"
	"github.com/instrlab/instrlab/internal/client"
	"github.com/instrlab/instrlab/internal/fingerprint"
	"github.com/instrlab/instrlab/internal/matrix"
	"github.com/instrlab/instrlab/internal/matrix/analyze"
	"github.com/instrlab/instrlab/internal/probe"
	"github.com/instrlab/instrlab/internal/redact"
	"github.com/instrlab/instrlab/internal/untrusted"
	"github.com/instrlab/instrlab/lab"
)

// UserServers are a user's own servers (instrlab run -server and -config),
// by name, in order: a stdio server's command, or a Streamable HTTP
// server's endpoint. Neither goes into the evidence, since either may
// carry a credential: Use hands them to the runner.
type UserServers struct {
	names    []string
	commands map[string]lab.ServerCommand
	http     map[string]HTTPServer
	// nameFrom is the package.json that named the server of -server --,
	// when its command's own name said nothing (probe.ServerName).
	nameFrom string
	// targets are the servers as given, for Redactor.
	targets []probe.Target
}

// Redacted is results as run prints and writes them (its summary, tables,
// results.json): the values the user gave these servers hidden wherever
// a server echoed them into what the run recorded (probe.Redactor: a
// config's env and header values and ${VAR}s, a URL's query values,
// credential arguments), by value alone. The evidence itself is kept as
// recorded.
func (us *UserServers) Redacted(results []analyze.Result) []analyze.Result {
	if us == nil {
		return results
	}
	r := probe.Redactor(us.targets...)
	if !r.Knows() {
		return results
	}
	return redact.Copy(results, r.Known)
}

// ParseServers reads run's -server and -config: "-server -- CMD ARGS" (the
// flag's value is then "--" and the command follows, in rest), -server URL,
// or -config FILE with -server NAME (every stdio and HTTP server of the
// file when no name). It returns nil when neither flag is given; its
// errors are usage errors.
func ParseServers(server, config string, rest []string) (*UserServers, error) {
	us := &UserServers{commands: map[string]lab.ServerCommand{}, http: map[string]HTTPServer{}}
	switch {
	case config == "" && server == "":
		return nil, nil
	case config == "" && server == "--":
		if len(rest) == 0 {
			return nil, cli.UsageError{Msg: "-server --: name the server's command after --"}
		}
		dir, err := os.Getwd()
		if err != nil {
			return nil, fmt.Errorf("-server: the working directory: %w", err)
		}
		name, from := probe.ServerName(dir, rest[0], rest[1:])
		us.add(name, lab.ServerCommand{Command: lookPath(rest[0]), Args: rest[1:], Dir: dir, Environ: os.Environ()})
		us.nameFrom, us.targets = from, []probe.Target{{Args: rest[1:]}}
		return us, nil
	case config == "" && (strings.HasPrefix(server, "http://") || strings.HasPrefix(server, "https://")):
		if len(rest) > 0 {
			return nil, cli.UsageError{Msg: fmt.Sprintf("run: unexpected argument %q", rest[0])}
		}
		u, err := url.Parse(server)
		if err != nil || u.Host == "" {
			return nil, cli.UsageError{Msg: "-server URL: not a URL"} // the URL itself may hold a secret: not quoted
		}
		us.names = append(us.names, urlName(u))
		us.http[us.names[0]] = HTTPServer{URL: server}
		us.targets = []probe.Target{{URL: server}}
		return us, nil
	case config == "":
		return nil, cli.UsageError{Msg: fmt.Sprintf("-server %q: give -server -- CMD [ARGS], or -config FILE -server NAME", server)}
	case len(rest) > 0:
		return nil, cli.UsageError{Msg: fmt.Sprintf("run: unexpected argument %q", rest[0])}
	}
	// Bounded; a FIFO that blocks gives way to a second signal (cli.Main).
	data, err := cli.ReadFile(context.Background(), config, cli.MaxConfig)
	if err != nil {
		return nil, cli.UsageError{Msg: "-config: " + err.Error()}
	}
	targets, err := probe.ParseConfig(data, config, os.LookupEnv)
	if err != nil {
		return nil, cli.UsageError{Msg: "-config: " + err.Error()}
	}
	if server != "" {
		if targets, err = probe.Select(targets, server); err != nil {
			return nil, cli.UsageError{Msg: "-config: " + err.Error()}
		}
	}
	us.targets = targets
	for _, t := range targets {
		if t.Transport == probe.TransportHTTP && t.URL != "" {
			us.names = append(us.names, t.Name)
			us.http[t.Name] = HTTPServer{URL: t.URL, Headers: t.Headers}
			continue
		}
		if t.Transport != probe.TransportStdio {
			if server != "" {
				return nil, cli.UsageError{Msg: fmt.Sprintf("-config: server %q is %s; only stdio and Streamable HTTP servers are run", t.Name, t.Transport)}
			}
			continue
		}
		dir, err := probe.StartDir(t, config)
		if err != nil {
			return nil, fmt.Errorf("-config: %w", err)
		}
		us.add(t.Name, lab.ServerCommand{Command: lookPath(t.Command), Args: t.Args, Env: t.Env, Dir: dir, Environ: os.Environ()})
	}
	if len(us.names) == 0 {
		return nil, cli.UsageError{Msg: "-config: no stdio or HTTP server to run in " + config}
	}
	return us, nil
}

// lookPath is command found on the caller's PATH, as the caller's shell
// finds it (the proxy's PATH is the client's, a fixed one), or command
// when it names a path or is not found (the proxy then says so).
func lookPath(command string) string {
	if strings.ContainsRune(command, '/') || strings.ContainsRune(command, filepath.Separator) {
		return command
	}
	if p, err := exec.LookPath(command); err == nil {
		if abs, err := filepath.Abs(p); err == nil {
			return abs
		}
	}
	return command
}

// urlName names an HTTP server after its URL's path without "mcp"
// (http://127.0.0.1:8080/notes/mcp is notes), else "http-server"; never
// after the query or user info, which may hold a credential.
func urlName(u *url.URL) string {
	parts := strings.FieldsFunc(u.Path, func(r rune) bool { return r == '/' })
	for i := len(parts) - 1; i >= 0; i-- {
		if p := parts[i]; p != "mcp" && p != "sse" && p != "v1" {
			return p
		}
	}
	return "http-server"
}

func (us *UserServers) add(name string, sc lab.ServerCommand) {
	us.names = append(us.names, name)
	us.commands[name] = sc
}

// Started is where and with which variables each stdio server starts
// (names only: a value may be a credential), by server name.
func (us *UserServers) Started() map[string]analyze.ServerStart {
	m := map[string]analyze.ServerStart{}
	for name, sc := range us.commands {
		m[name] = analyze.ServerStart{Dir: sc.Dir, Env: fingerprint.EnvNames(sc.Environ, sc.Env)}
	}
	return m
}

// Use gives r the servers: each stdio server's command in a file of its
// own (mode 0600) in a temporary directory outside the evidence, which
// cleanup removes, and each HTTP server's endpoint. Clients of an HTTP
// server run outside the network namespace, said on r.Progress: the client
// must reach the recording proxy, and the proxy the user's server, on this
// machine's loopback.
func (us *UserServers) Use(r *Runner) (cleanup func(), err error) {
	dir, err := TempDir(TempServers)
	if err != nil {
		return nil, fmt.Errorf("creating a directory for the server commands: %w", err)
	}
	cleanup = func() { os.RemoveAll(dir) }
	if r.Servers, err = us.write(dir); err != nil {
		cleanup()
		return nil, err
	}
	r.HTTPServers = us.http
	r.ServerStarts = us.Started()
	for _, spec := range slices.Sorted(maps.Keys(r.Arms)) {
		r.Arms[spec] = slices.DeleteFunc(slices.Clone(r.Arms[spec]), func(a client.Arm) bool {
			if a.Lab {
				fmt.Fprintf(r.progress(), "note: %s's arm %s is not run: its settings name the lab's own tools, none of your server's\n", spec, a.Name)
			}
			return a.Lab
		})
	}
	if us.nameFrom != "" {
		fmt.Fprintf(r.progress(), "note: the server is named %s after %s (name it otherwise with -config)\n", untrusted.EscapeLine(us.names[0]), untrusted.EscapeLine(us.nameFrom))
	}
	if r.Netns && len(us.http) > 0 {
		fmt.Fprintln(r.progress(), "note: clients of an HTTP server run outside the network namespace")
		r.Netns = false
	}
	return cleanup, nil
}

// write puts each server's command in a file of its own under dir (mode
// 0600, outside the evidence), and returns the files by server name.
func (us *UserServers) write(dir string) (map[string]string, error) {
	files := map[string]string{}
	for i, name := range us.names {
		if _, ok := us.commands[name]; !ok {
			continue // an HTTP server
		}
		data, err := json.Marshal(us.commands[name])
		if err != nil {
			return nil, err
		}
		path := filepath.Join(dir, fmt.Sprintf("server-%d.json", i+1))
		if err := os.WriteFile(path, data, 0o600); err != nil {
			return nil, fmt.Errorf("writing the server command: %w", err)
		}
		files[name] = path
	}
	return files, nil
}

// Matrix is the default matrix for the servers (matrix.ForServers); with
// hold, each stdio server also has a row with its first reply held that
// long.
func (us *UserServers) Matrix(hold time.Duration) *matrix.Matrix {
	m := matrix.ForServers(us.names)
	if hold > 0 {
		var stdio []string
		for _, n := range us.names {
			if _, ok := us.commands[n]; ok {
				stdio = append(stdio, n)
			}
		}
		m.Hold(stdio, hold)
	}
	return m
}
