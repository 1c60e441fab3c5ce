package matrix

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/instrlab/instrlab/internal/cli"
	"github.com/instrlab/instrlab/internal/fakeapi"
	"github.com/instrlab/instrlab/lab"
)

// ServerName is the lab server's name in client configs.
const ServerName = "lab"

// ServerNameHyphen is the lab's name in the row that measures what a
// client makes of a server's name with a hyphen (surface-names-server).
const ServerNameHyphen = "lab-hyphen"

// A Matrix is a list of rows and the defaults they share. Its JSON form is
// the matrix file format of docs/matrix.md.
type Matrix struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	// Repeats, Model, Prompt and MaxTurns are defaults for every row.
	Repeats  int    `json:"repeats"`
	Model    string `json:"model,omitempty"`
	Prompt   string `json:"prompt"`
	MaxTurns int    `json:"max_turns,omitempty"`
	// Baseline names the row that request sizes are compared with.
	Baseline string `json:"baseline,omitempty"`
	// Arms lists the arms to run per client name ("all" for every arm the
	// client declares); a client not listed runs its default arm. The
	// -arms flag, when given, wins.
	Arms map[string][]string `json:"arms,omitempty"`
	Rows []Row               `json:"rows"`
}

// Within reports, as an error naming them, the rows of m that wider does
// not have: a resume may run fewer rows than the run it finishes, never
// others.
func (m *Matrix) Within(wider *Matrix) error {
	if m.Name != wider.Name {
		return fmt.Errorf("matrix %q is not matrix %q of the earlier run", m.Name, wider.Name)
	}
	var missing []string
	for _, r := range m.Rows {
		if !slices.ContainsFunc(wider.Rows, func(w Row) bool { return w.Name == r.Name }) {
			missing = append(missing, strconv.Quote(r.Name))
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("rows %s are not in the earlier run's matrix %q", strings.Join(missing, ", "), wider.Name)
	}
	return nil
}

// A Row is one row of a matrix: the lab's settings (lab.Args, embedded:
// the flags a row may set, as docs/matrix.md lists them under their JSON
// keys) and how the client is run. A row of a user's server (Server) sets
// only InitDelay of them: how long the proxy holds the server's first
// reply.
type Row struct {
	Name  string `json:"name"`
	Label string `json:"label"`
	// Args are the lab's flags, in the matrix file beside the row's own
	// keys (lab.Args.JSONMembers): instr, or instr_file (a file whose
	// text the lab serves unchanged in both eras; relative to the matrix
	// file, its text read back from the lab's log), tool_description
	// (_file), eras, the delays (init_delay, discover_delay, ready_after:
	// the reply that completes the handshake held until that long after
	// the lab's process started, so that the client meets the same delay
	// however long the start took), on_unknown, fail, tool_meta, surface,
	// result_size, tools, tool_name_length, tool_order, discover_ttl,
	// cache_scope, drop_session, drop_after_calls, session_texts. The
	// runner sets Log.
	lab.Args `json:"-"`
	// Env and Flags are given to the client process.
	Env   map[string]string `json:"env,omitempty"`
	Flags []string          `json:"flags,omitempty"`
	// Model, Prompt, MaxTurns and Repeats override the matrix defaults.
	Model    string `json:"model,omitempty"`
	Prompt   string `json:"prompt,omitempty"`
	MaxTurns int    `json:"max_turns,omitempty"`
	Repeats  int    `json:"repeats,omitempty"`
	// Script is the fake API's scripted turns.
	Script []fakeapi.Turn `json:"script,omitempty"`
	// Clients limits the row to these client names (knobs of one client).
	Clients []string `json:"clients,omitempty"`
	// Server names a user's own server (instrlab run -server, -config):
	// the client starts it behind "instrlab serve proxy" instead of the
	// lab, and its texts are read from the proxy's log. Instr is then
	// "none". The server's command is not in the row, which evidence
	// keeps: the runner holds it (runner.Runner.Servers).
	Server string `json:"server,omitempty"`
	// Servers, when set, run several lab servers in one session, in the
	// client's config in this order, each with its own name and
	// codewords (LabServer); the first is the one the client's own
	// observation reads and the row's other columns describe.
	Servers []LabServer `json:"servers,omitempty"`
	// Transport is how the client reaches the lab: "stdio" (the default:
	// the client starts it) or "http" (the runner serves it over
	// Streamable HTTP on 127.0.0.1 and gives the client its URL).
	Transport string `json:"transport,omitempty"`
	// NoDelta says the row has no comparable baseline (it changes what
	// the client sends besides the instructions).
	NoDelta bool `json:"no_delta,omitempty"`
	// Timeout, when set, bounds each run of the row below the runner's
	// -timeout (a Go duration, "90s"): a row whose runs end within
	// seconds unless the client hangs says so, and a hang costs that
	// long, not the whole -timeout (Limit).
	Timeout string `json:"timeout,omitempty"`
	// Idle, when set, ends a run as timed out once, after its first
	// model request, neither the fake model API nor the lab's log has
	// had anything new for this long (a Go duration, "20s"): a client
	// whose turn never ends costs that, not the row's whole limit
	// (IdleLimit).
	Idle string `json:"idle,omitempty"`
}

// IdleLimit is the row's Idle, 0 when it has none.
func (r Row) IdleLimit() time.Duration {
	d, _ := positiveDuration(r.Idle)
	return d
}

// positiveDuration reads a row's duration key (timeout, idle): 0 and no
// error when unset, an error unless it is a duration above 0.
func positiveDuration(s string) (time.Duration, error) {
	if s == "" {
		return 0, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d <= 0 {
		return 0, errors.New("want a duration above 0")
	}
	return d, nil
}

// Limit is how long a run of the row may take under the runner's timeout:
// the row's own Timeout when it is shorter (or timeout is unset).
func (r Row) Limit(timeout time.Duration) time.Duration {
	own, err := positiveDuration(r.Timeout)
	if err != nil || own == 0 || timeout > 0 && timeout < own {
		return timeout
	}
	return own
}

// MarshalJSON writes the row's own keys, then the lab's settings.
func (r Row) MarshalJSON() ([]byte, error) {
	type plain Row
	b, err := json.Marshal(plain(r))
	if err != nil {
		return nil, err
	}
	members, err := r.Args.JSONMembers()
	if err != nil || len(members) == 0 {
		return b, err
	}
	return append(append(append(b[:len(b)-1:len(b)-1], ','), members...), '}'), nil
}

// UnmarshalJSON reads a row: its own keys, then the lab's settings
// (lab.Args.SetFromJSON, which reads -eras' key before the glossary, "era",
// with "dual" for both), so that matrix files and the evidence of earlier
// runs still read.
func (r *Row) UnmarshalJSON(b []byte) error {
	type plain Row
	if err := json.Unmarshal(b, (*plain)(r)); err != nil {
		return err
	}
	if err := r.Args.SetFromJSON(b); err != nil {
		return fmt.Errorf("row %q: %w", r.Name, err)
	}
	return nil
}

var (
	nameRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z0-9][a-z0-9._-]*$`) })
	armRE  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z0-9][a-z0-9-]*$`) })
)

// Load reads a matrix file, at most cli.MaxConfig bytes of it, and gives
// up when ctx is done (a FIFO nobody writes).
func Load(ctx context.Context, path string) (*Matrix, error) {
	data, err := cli.ReadFile(ctx, path, cli.MaxConfig)
	if err != nil {
		return nil, fmt.Errorf("reading matrix: %w", err)
	}
	m, err := Parse(data, path)
	if err != nil {
		return nil, err
	}
	for i := range m.Rows {
		for _, f := range []*string{&m.Rows[i].InstrFile, &m.Rows[i].ToolDescFile} {
			if *f == "" {
				continue
			}
			if !filepath.IsAbs(*f) {
				*f = filepath.Join(filepath.Dir(path), *f)
			}
			if _, err := os.Stat(*f); err != nil {
				return nil, fmt.Errorf("matrix %s: row %q: %w", path, m.Rows[i].Name, err)
			}
		}
	}
	return m, nil
}

// Parse decodes and validates a matrix; name is used in errors.
func Parse(data []byte, name string) (*Matrix, error) {
	var m Matrix
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("matrix %s: %w", name, err)
	}
	if err := m.Validate(); err != nil {
		return nil, fmt.Errorf("matrix %s: %w", name, err)
	}
	return &m, nil
}

// Validate checks the matrix before any run starts.
func (m *Matrix) Validate() error {
	if len(m.Rows) == 0 {
		return fmt.Errorf("no rows")
	}
	seen := map[string]bool{}
	for i, r := range m.Rows {
		if !nameRE().MatchString(r.Name) {
			return fmt.Errorf("row %d: name %q: want lower case letters, digits, '.', '_' or '-'", i+1, r.Name)
		}
		if seen[r.Name] {
			return fmt.Errorf("row %q: duplicate name", r.Name)
		}
		seen[r.Name] = true
		if r.Server != "" && r.Instr != "none" {
			return fmt.Errorf("row %q: a row for server %q serves the server's own instructions: instr must be none", r.Name, r.Server)
		}
		if r.InstrFile != "" {
			if r.Instr != "" && r.Instr != "none" {
				return fmt.Errorf("row %q: instr and instr_file are exclusive", r.Name)
			}
			if r.Server != "" {
				return fmt.Errorf("row %q: a server row serves the server's own text, not instr_file", r.Name)
			}
		} else if r.Instr == "" {
			return fmt.Errorf("row %q: no instr: want none, KIND:N or an instr_file", r.Name)
		}
		// The lab's own checks: the instructions, era, on_unknown and delays.
		if err := r.Lab("").Validate(); err != nil {
			return fmt.Errorf("row %q: %w", r.Name, err)
		}
		if err := r.validateServers(); err != nil {
			return err
		}
		if r.Server != "" && (r.DiscoverDelay != 0 || r.ReadyAfter != 0) {
			return fmt.Errorf("row %q: a server row holds the server's first reply with init_delay; discover_delay and ready_after are the lab's", r.Name)
		}
		if r.Server != "" && (r.ToolDesc != "" || r.ToolDescFile != "" || r.Fail != "" || len(r.ToolMeta) > 0 || r.Tools != 0 || r.NameLength != 0 || r.ToolOrder != "") {
			return fmt.Errorf("row %q: a server row serves the server's own tools and replies, not tool_description, tool_meta, fail, tools, tool_name_length or tool_order", r.Name)
		}
		if err := r.validateTransport(); err != nil {
			return err
		}
		for _, d := range []struct{ key, value, example string }{{"timeout", r.Timeout, "90s"}, {"idle", r.Idle, "20s"}} {
			if _, err := positiveDuration(d.value); err != nil {
				return fmt.Errorf("row %q: %s %q: want a duration such as %q", r.Name, d.key, d.value, d.example)
			}
		}
		if r.Prompt == "" && m.Prompt == "" {
			return fmt.Errorf("row %q: no prompt (set the matrix's prompt or the row's)", r.Name)
		}
	}
	for c, names := range m.Arms {
		if len(names) == 0 {
			return fmt.Errorf("arms of %q: empty list", c)
		}
		for _, n := range names {
			if !armRE().MatchString(n) {
				return fmt.Errorf("arms of %q: %q: want lower case letters, digits and '-'", c, n)
			}
		}
	}
	if m.Baseline != "" && !seen[m.Baseline] {
		return fmt.Errorf("baseline %q is not a row", m.Baseline)
	}
	return nil
}

// Resolved returns r with the matrix defaults filled in.
func (m *Matrix) Resolved(r Row) Row {
	if r.Model == "" {
		r.Model = m.Model
	}
	if r.Prompt == "" {
		r.Prompt = m.Prompt
	}
	if r.MaxTurns == 0 {
		r.MaxTurns = m.MaxTurns
	}
	if r.Repeats == 0 {
		r.Repeats = m.Repeats
	}
	if r.Repeats == 0 {
		r.Repeats = 1
	}
	if r.Eras == "" {
		r.Eras = lab.ModeLegacy
	}
	return r
}

// Transports a row's lab may be reached by (Row.Transport).
const (
	TransportStdio = "stdio"
	TransportHTTP  = "http"
)

// HTTP reports whether the row serves its lab over Streamable HTTP.
func (r Row) HTTP() bool { return r.Transport == TransportHTTP }

func (r Row) validateTransport() error {
	switch {
	case r.Transport != "" && r.Transport != TransportStdio && r.Transport != TransportHTTP:
		return fmt.Errorf("row %q: transport %q: want stdio or http", r.Name, r.Transport)
	case !r.HTTP() && (r.DropSession != 0 || r.DropAfterCalls != 0):
		return fmt.Errorf("row %q: drop_session and drop_after_calls need transport http: stdio has no sessions", r.Name)
	case r.HTTP() && r.OnUnknown == lab.UnknownCrash:
		return fmt.Errorf("row %q: transport http: on_unknown crash would end the runner, whose process serves the lab over HTTP", r.Name)
	case r.HTTP() && (r.Server != "" || len(r.Servers) > 0):
		return fmt.Errorf("row %q: transport http serves the row's one lab over HTTP; a user's server (-server URL) or several labs are not", r.Name)
	}
	return nil
}

// Held is the longest time the row's lab holds a reply on purpose
// (init_delay, discover_delay or ready_after); 0 when it holds none.
func (r Row) Held() time.Duration {
	return max(r.InitDelay, r.DiscoverDelay, r.ReadyAfter)
}

// For reports whether the row runs for the client named name.
func (r Row) For(name string) bool {
	if len(r.Clients) == 0 {
		return true
	}
	for _, c := range r.Clients {
		if c == name {
			return true
		}
	}
	return false
}

// ServerName is the name the row's server is filed under in the client's
// config: the user's own server's name (Server, with characters other
// than letters, digits, '_' and '-' made '-', as clients' config keys and
// tool prefixes allow), or the lab's.
func (r Row) ServerName() string {
	if len(r.Servers) > 0 {
		return r.Servers[0].Name
	}
	if r.Server == "" {
		return ServerName
	}
	name := strings.Trim(configNameRE().ReplaceAllString(r.Server, "-"), "-")
	if name == "" {
		return "server"
	}
	return name
}

var configNameRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[^A-Za-z0-9_-]+`) })

// ProxyArgs are the arguments of "instrlab serve proxy" in front of the
// user's server whose command is in commandFile, logging to logPath; the
// row's init_delay holds the server's first reply (-hold).
func (r Row) ProxyArgs(logPath, commandFile string) []string {
	args := []string{"serve", "proxy", "-log", logPath, "-command-file", commandFile}
	if r.InitDelay != 0 {
		args = append(args, "-hold", r.InitDelay.String())
	}
	return args
}

// Plain reports whether the row changes nothing but the server's text and
// era: no environment, flags, delays, failures or tool _meta, so that what the client keeps is
// its default.
func (r Row) Plain() bool {
	return len(r.Env) == 0 && len(r.Flags) == 0 && r.Held() == 0 && r.Fail == "" && len(r.ToolMeta) == 0 && r.DropSession == 0 && r.DropAfterCalls == 0 && !r.SessionTexts
}

// Lab is the lab server's flags for the row, logging to logPath.
func (r Row) Lab(logPath string) lab.Args {
	a := r.Args
	a.Log = logPath
	if a.InstrFile != "" {
		a.Instr = ""
	}
	return a
}

// LabArgs is the command line of "instrlab serve lab" for a validated
// row, logging to logPath.
func (r Row) LabArgs(logPath string) []string {
	return append(slices.Clone(lab.Subcommand), r.Lab(logPath).Args()...)
}
