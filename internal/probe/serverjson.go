package probe

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"strings"

	"github.com/instrlab/instrlab/lab"
)

// ErrServerJSON reports a server.json that is not valid: check exits 2.
var ErrServerJSON = errors.New("invalid server.json")

// ErrCannotStart reports a server.json none of whose packages and remotes
// can be started here (a runtime that is missing, a package type instrlab
// does not start): check exits 2 with the reasons.
var ErrCannotStart = errors.New("cannot start")

// MaxServerJSON bounds the size of a server.json read.
const MaxServerJSON = 1 << 20

// A serverJSON is the MCP registry's description of a server (its
// server.json, the format of static.modelcontextprotocol.io's
// server.schema.json): what is read of it to start the server.
type serverJSON struct {
	Schema      string         `json:"$schema"`
	Name        string         `json:"name"`
	Description string         `json:"description"`
	Version     string         `json:"version"`
	Packages    []registryPkg  `json:"packages"`
	Remotes     []transportDef `json:"remotes"`
}

type registryPkg struct {
	RegistryType         string       `json:"registryType"`
	RegistryBaseURL      string       `json:"registryBaseUrl"`
	Identifier           string       `json:"identifier"`
	Version              string       `json:"version"`
	RuntimeHint          string       `json:"runtimeHint"`
	Transport            transportDef `json:"transport"`
	RuntimeArguments     []argument   `json:"runtimeArguments"`
	PackageArguments     []argument   `json:"packageArguments"`
	EnvironmentVariables []input      `json:"environmentVariables"`
}

type transportDef struct {
	Type    string  `json:"type"`
	URL     string  `json:"url"`
	Headers []input `json:"headers"`
}

// An input is a value the registry's format lets a user supply: an
// argument, an environment variable or a header.
type input struct {
	Name       string           `json:"name"`
	Type       string           `json:"type"` // arguments: positional or named
	Value      string           `json:"value"`
	ValueHint  string           `json:"valueHint"`
	Default    string           `json:"default"`
	IsRequired bool             `json:"isRequired"`
	IsSecret   bool             `json:"isSecret"`
	Variables  map[string]input `json:"variables"`
}

type argument = input

// validName reports whether name is the registry's namespace/name: one
// slash, letters, digits, dots and dashes before it, underscores too after.
func validName(name string) bool {
	ns, n, ok := strings.Cut(name, "/")
	return ok && len(name) <= 200 && onlyOf(ns, ".-") && onlyOf(n, "._-")
}

// onlyOf reports whether s is not empty and holds only ASCII letters,
// digits and the runes of extra.
func onlyOf(s, extra string) bool {
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune(extra, r)) {
			return false
		}
	}
	return s != ""
}

// runtimes are the command each registry type's packages run through, as
// the registry's documentation names them (runtimeHint overrides).
var runtimes = map[string]string{"npm": "npx", "pypi": "uvx", "nuget": "dnx", "oci": "docker"}

// What a user gives the servers a server.json describes. The file chooses
// names and hosts, the user the values: nothing it names is sent where
// the user did not say.
type Given struct {
	// Getenv supplies the environment variables a package's process
	// needs; the process inherits the environment anyway.
	Getenv func(string) (string, bool)
	// LookPath finds a package's runtime (exec.LookPath).
	LookPath func(string) (string, error)
	// Headers are the values of the headers a remote lists (check's
	// -header): never taken from the environment, whose variable the
	// file would name, to be sent to the host the file names.
	Headers map[string]string
	// AllowRemote probes remotes on other hosts than this machine
	// (loopback); by default they are named and skipped.
	AllowRemote bool
}

// ParseServerJSON reads an MCP registry server.json and returns a target
// for each package and remote that can be started here, and why each other
// one cannot. A file that is not a valid server.json is ErrServerJSON;
// one of which nothing can start, ErrCannotStart with the reasons.
func ParseServerJSON(data []byte, source string, g Given) (ts []Target, skipped []string, err error) {
	if len(data) > MaxServerJSON {
		return nil, nil, fmt.Errorf("%w: %s is over %d bytes", ErrServerJSON, source, MaxServerJSON)
	}
	var s serverJSON
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&s); err != nil {
		return nil, nil, fmt.Errorf("%w: %s: %v", ErrServerJSON, source, err)
	}
	if err := s.validate(); err != nil {
		return nil, nil, fmt.Errorf("%w: %s: %v", ErrServerJSON, source, err)
	}
	name := s.Name[strings.LastIndex(s.Name, "/")+1:]
	for i, p := range s.Packages {
		where := fmt.Sprintf("packages[%d] (%s %s@%s)", i, p.RegistryType, p.Identifier, p.Version)
		t, err := p.target(g.Getenv, g.LookPath)
		if err != nil {
			skipped = append(skipped, where+": "+err.Error())
			continue
		}
		t.Name, t.Source = name, source+" "+where
		ts = append(ts, t)
	}
	for i, r := range s.Remotes {
		where := fmt.Sprintf("remotes[%d] (%s)", i, r.Type)
		t, err := r.remote(g)
		if err != nil {
			skipped = append(skipped, where+": "+err.Error())
			continue
		}
		t.Name, t.Source = name, source+" "+where
		ts = append(ts, t)
	}
	if len(ts) > 1 {
		for i := range ts {
			ts[i].Name = fmt.Sprintf("%s-%d", name, i+1)
		}
	}
	if len(ts) == 0 {
		return nil, skipped, fmt.Errorf("%w: nothing in %s can be started here: %s", ErrCannotStart, source, strings.Join(skipped, "; "))
	}
	return ts, skipped, nil
}

func (s *serverJSON) validate() error {
	var errs []string
	switch {
	case s.Name == "":
		errs = append(errs, "name is missing")
	case !validName(s.Name):
		errs = append(errs, fmt.Sprintf("name %q is not namespace/name (reverse DNS, one slash)", s.Name))
	}
	if s.Description == "" {
		errs = append(errs, "description is missing")
	}
	if s.Version == "" {
		errs = append(errs, "version is missing")
	}
	if len(s.Packages) == 0 && len(s.Remotes) == 0 {
		errs = append(errs, "neither packages nor remotes: nothing to start")
	}
	for i, p := range s.Packages {
		switch {
		case p.RegistryType == "":
			errs = append(errs, fmt.Sprintf("packages[%d]: registryType is missing", i))
		case p.Identifier == "":
			errs = append(errs, fmt.Sprintf("packages[%d]: identifier is missing", i))
		case p.Transport.Type == "":
			errs = append(errs, fmt.Sprintf("packages[%d]: transport.type is missing", i))
		case p.Version == "latest":
			errs = append(errs, fmt.Sprintf("packages[%d]: version must be a specific version, not latest", i))
		}
	}
	for i, r := range s.Remotes {
		if r.Type == "" || r.URL == "" {
			errs = append(errs, fmt.Sprintf("remotes[%d]: type and url are required", i))
		}
	}
	if len(errs) > 0 {
		return errors.New(strings.Join(errs, "; "))
	}
	return nil
}

// target is the command that starts p, as a client would run it:
// RUNTIME [runtimeArguments] IDENTIFIER@VERSION [packageArguments].
func (p registryPkg) target(getenv func(string) (string, bool), lookPath func(string) (string, error)) (Target, error) {
	switch {
	case p.RegistryType == "mcpb":
		return Target{}, errors.New("an MCP bundle (mcpb) is downloaded and unpacked by its client; instrlab does not start bundles")
	case p.Transport.Type != "stdio":
		return Target{}, fmt.Errorf("a package served over %s: instrlab starts stdio packages only (check its URL once it runs)", p.Transport.Type)
	}
	runtime := p.RuntimeHint
	if runtime == "" {
		runtime = runtimes[p.RegistryType]
	}
	if runtime == "" {
		return Target{}, fmt.Errorf("registry type %q has no runtime instrlab knows, and no runtimeHint", p.RegistryType)
	}
	if _, err := lookPath(runtime); err != nil {
		return Target{}, fmt.Errorf("needs %s, which is not on PATH", runtime)
	}
	if p.RegistryBaseURL != "" && p.RegistryType == "npm" && strings.TrimSuffix(p.RegistryBaseURL, "/") != "https://registry.npmjs.org" {
		return Target{}, fmt.Errorf("an npm package of another registry (%s): npx here uses the configured registry", p.RegistryBaseURL)
	}
	args, err := resolveArgs(p.RuntimeArguments, "runtimeArguments")
	if err != nil {
		return Target{}, err
	}
	switch runtime {
	case "npx":
		args = append([]string{"-y"}, args...)
	}
	pkgArgs, err := resolveArgs(p.PackageArguments, "packageArguments")
	if err != nil {
		return Target{}, err
	}
	ref := p.Identifier
	if p.Version != "" {
		ref += "@" + p.Version
	}
	args = append(append(args, ref), pkgArgs...)
	env := map[string]string{}
	for _, e := range p.EnvironmentVariables {
		v, ok := resolve(e)
		if !ok {
			if v, ok = getenv(e.Name); !ok && e.IsRequired {
				return Target{}, fmt.Errorf("environment variable %s is required and has no value: set it where instrlab runs", e.Name)
			}
		}
		if ok {
			env[e.Name] = v
		}
	}
	return Target{Transport: TransportStdio, Command: runtime, Args: args, Env: env}, nil
}

// remote is a remote's target, its headers resolved: a value the file
// gives (a public one, such as a region), else the user's (g.Headers).
func (r transportDef) remote(g Given) (Target, error) {
	transport := map[string]string{"streamable-http": TransportHTTP, "sse": "sse"}[r.Type]
	if transport == "" {
		return Target{}, fmt.Errorf("unknown remote type %q", r.Type)
	}
	if strings.ContainsAny(r.URL, "{}") {
		return Target{}, fmt.Errorf("the URL %s has variables a user supplies; check it with its URL", r.URL)
	}
	u, err := url.Parse(r.URL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return Target{}, fmt.Errorf("the URL %q is not an http(s) URL", r.URL)
	}
	if !g.AllowRemote && !lab.LoopbackHost(u.Host) {
		return Target{}, fmt.Errorf("%s is not on this machine: check probes a server.json's remotes on loopback only, unless -allow-remote", u.Host)
	}
	headers := map[string]string{}
	for _, h := range r.Headers {
		v, ok := resolve(h)
		if !ok {
			if v, ok = g.Headers[h.Name]; !ok && h.IsRequired {
				return Target{}, fmt.Errorf("header %s is required and has no value: give it with -header '%s: VALUE'", h.Name, h.Name)
			}
		}
		if ok {
			headers[h.Name] = v
		}
	}
	return Target{Transport: transport, URL: r.URL, Headers: headers}, nil
}

// resolveArgs turns arguments into a command line: a positional's value,
// a named one's flag and value as the next argument. One that has no
// value is left out unless it is required.
func resolveArgs(as []argument, field string) ([]string, error) {
	var out []string
	for i, a := range as {
		v, ok := resolve(a)
		switch a.Type {
		case "positional":
			if !ok {
				if a.IsRequired {
					return nil, fmt.Errorf("%s[%d] (%s) is required and has no value or default", field, i, a.ValueHint)
				}
				continue
			}
			out = append(out, v)
		case "named":
			if a.Name == "" {
				return nil, fmt.Errorf("%s[%d]: a named argument without a name", field, i)
			}
			if !ok {
				if a.IsRequired {
					return nil, fmt.Errorf("%s[%d] (%s) is required and has no value or default", field, i, a.Name)
				}
				continue
			}
			out = append(out, a.Name, v)
		default:
			return nil, fmt.Errorf("%s[%d]: type %q is neither positional nor named", field, i, a.Type)
		}
	}
	return out, nil
}

// resolve is an input's value (or default), its {variables} replaced by
// theirs; a variable without one stays as written, as the format says.
func resolve(in input) (string, bool) {
	v := in.Value
	if v == "" {
		v = in.Default
	}
	if v == "" {
		return "", false
	}
	for name, vr := range in.Variables {
		if x, ok := resolve(vr); ok {
			v = strings.ReplaceAll(v, "{"+name+"}", x)
		}
	}
	return v, true
}

// ReadServerJSON reads the server.json at path (at most MaxServerJSON
// bytes) and parses it as ParseServerJSON does.
func ReadServerJSON(path string, g Given) ([]Target, []string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, fmt.Errorf("%w: %v", ErrServerJSON, err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxServerJSON+1))
	if err != nil {
		return nil, nil, fmt.Errorf("%w: reading %s: %v", ErrServerJSON, path, err)
	}
	return ParseServerJSON(data, path, g)
}
