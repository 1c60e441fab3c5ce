package client

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/instrlab/instrlab/internal/evidence"
)

// A Run is one isolated run of a client: its own directories, its own fake
// API and its own lab server. Paths are absolute.
type Run struct {
	// Dir holds the run's evidence; Home, Tmp and Work are the client's
	// HOME, TMPDIR and working directory, all fresh and under Dir.
	Dir, Home, Tmp, Work string
	// APIURL is the base URL of the fake model API; APIKey the dummy key
	// the client is given. In the direct arm (Arm.Direct) APIURL is
	// empty: the client is given no base URL and talks to its vendor's
	// host, which the jail resolves to the fake.
	APIURL, APIKey string
	// Trust is the environment that makes the client trust the run's
	// certificate authority in the direct arm (TrustEnv); the client's
	// environment has it after the arm's, before the row's.
	Trust map[string]string
	// Servers are the MCP servers to configure, in the config's order,
	// each named by its Name (unique); Primary is the first.
	Servers []Server
	// Prompt, Model and MaxTurns come from the matrix row; Model and
	// MaxTurns may be empty or zero for the client's default.
	Prompt   string
	Model    string
	MaxTurns int
	// Env holds the row's extra environment variables for the client;
	// Flags its extra command-line flags.
	Env   map[string]string
	Flags []string
	// Arm is the arm the client is run in; its Env is applied under the
	// row's, and the client writes its Settings and Cached values.
	Arm Arm
	// CallTools says the row's script calls the servers' tools: a client
	// that asks before it runs an MCP tool is told to run theirs.
	CallTools bool
	// Timeout bounds the run.
	Timeout time.Duration
}

// A Server is a stdio MCP server command line, or, when URL is set, a
// Streamable HTTP server at URL.
type Server struct {
	Name    string            `json:"name"`
	Command string            `json:"command,omitempty"`
	Args    []string          `json:"args,omitempty"`
	Env     map[string]string `json:"env,omitempty"`
	URL     string            `json:"url,omitempty"`
}

// Files is the run's evidence directory, which names its files.
func (r *Run) Files() evidence.RunDir { return evidence.RunDir(r.Dir) }

// ClientDir is where a client keeps its own evidence of a run (configs,
// debug logs, stdout).
func (r *Run) ClientDir() string { return r.Files().Client() }

// Stdout is the file the runner writes the client's standard output to.
func (r *Run) Stdout() string { return r.Files().Stdout() }

// Stderr is the file holding the client's standard error.
func (r *Run) Stderr() string { return r.Files().Stderr() }

// BaseEnv is the environment every client starts from: nothing of the
// user's own environment except a fixed PATH, so no credentials or client
// settings leak into a run.
func (r *Run) BaseEnv() map[string]string {
	return map[string]string{
		"PATH":   "/usr/local/bin:/usr/bin:/bin",
		"HOME":   r.Home,
		"TMPDIR": r.Tmp,
		"LANG":   "C.UTF-8",
		"TERM":   "dumb",
	}
}

// WriteConfig writes a client's per-run configuration b to path, creating
// its folder, and a copy named name in the client dir, where the evidence
// keeps what the client was given.
func (r *Run) WriteConfig(path, name string, b []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("creating the folder of %s: %w", path, err)
	}
	for _, p := range []string{path, filepath.Join(r.ClientDir(), name)} {
		if err := os.WriteFile(p, b, 0o644); err != nil {
			return fmt.Errorf("writing %s: %w", name, err)
		}
	}
	return nil
}
