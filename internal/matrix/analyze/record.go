package analyze

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/instrlab/instrlab/internal/cli"
	"github.com/instrlab/instrlab/internal/client"
	"github.com/instrlab/instrlab/internal/evidence"
	"github.com/instrlab/instrlab/internal/jsonl"
	"github.com/instrlab/instrlab/internal/load"
	"github.com/instrlab/instrlab/internal/matrix"
)

// A run's statuses (Record.Status, Result.Status). The files of a run's
// evidence are named by evidence.RunDir.
const (
	StatusOK     = "ok"
	StatusFailed = "failed"
)

// TimedOut begins the reason of a run the runner stopped at its limit
// ("timed out after 1m30s").
const TimedOut = "timed out after "

// Idle follows TimedOut and the row's idle limit in the reason of a run
// the runner stopped because nothing new happened for that long after its
// first model request (matrix.Row.Idle).
const Idle = " with nothing new (no model request, no message to or from the server)"

// A Record is what the runner knows of one run: what was asked, and how the
// client process ended. It is written to RecordFile when the run ends.
type Record struct {
	Client client.Spec `json:"client"`
	// Arm is the arm the client was run in, with how it was set.
	Arm    client.Arm `json:"arm"`
	Row    matrix.Row `json:"row"` // resolved
	Repeat int        `json:"repeat"`
	// Model is the model the runner had the client name where the row
	// named none, and ModelWhy why: a client whose default model cannot
	// call the server's tools, in a row whose script calls them
	// (client.ToolModeler).
	Model    string `json:"model,omitempty"`
	ModelWhy string `json:"model_why,omitempty"`
	// Status is ok or failed; Reason says why a run failed (timeout,
	// exit status, signal, a runner error).
	Status string `json:"status"`
	Reason string `json:"reason,omitempty"`
	// Transport is how the client reached the run's first server:
	// matrix.TransportStdio or matrix.TransportHTTP; "" in a record
	// written before it was kept, which is stdio unless Row.Server was a
	// user's HTTP server.
	Transport string `json:"transport,omitempty"`
	// Netns is set when the client ran in a loopback-only network
	// namespace, with the names it asked in DNSLogFile.
	Netns bool `json:"netns,omitempty"`
	// Live is set when the fake forwarded to a real API.
	Live     bool      `json:"live,omitempty"`
	Upstream string    `json:"upstream,omitempty"`
	Start    time.Time `json:"start"`
	// SetupMS, ClientMS and TeardownMS split the run's wall time: before
	// the client started, the client process, and after it ended.
	SetupMS    float64 `json:"setup_ms"`
	ClientMS   float64 `json:"client_ms"`
	TeardownMS float64 `json:"teardown_ms"`
	// ClientCPUMS is the CPU time (user and system) of the process the
	// runner waited for, as its exit status reports it (ProcessCPU): on
	// Linux and the BSDs that includes every descendant it waited for, so
	// a jailed run counts the jail, the client and the lab servers the
	// client reaped. 0 when the process did not start.
	ClientCPUMS float64 `json:"client_cpu_ms"`
	// Load is the machine's load when the client started and when it
	// ended; nil where the system does not tell it.
	Load     *RunLoad `json:"load,omitempty"`
	ExitCode int      `json:"exit_code"`
	// Server is where the user's stdio server (Row.Server) was started
	// and the names of the variables it was given; nil for the lab.
	Server *ServerStart `json:"server_start,omitempty"`
	// Binary is the client executable; Cmd its arguments.
	Binary string   `json:"binary,omitempty"`
	Args   []string `json:"args,omitempty"`
	// EnvKeys names the variables of the client's environment, sorted:
	// what a run was given (as no ANTHROPIC_BASE_URL in the direct arm)
	// without the values, which may hold keys.
	EnvKeys []string `json:"env_keys,omitempty"`
}

// A ServerStart is where a user's stdio server started (behind the
// recording proxy), and the names of the variables of its environment:
// the caller's, and its config's env. Values are never recorded: one may
// be a credential.
type ServerStart struct {
	Dir string   `json:"dir"`
	Env []string `json:"env"`
}

// RunLoad is the machine's load around one run's client process.
type RunLoad struct {
	Start load.Sample `json:"start"`
	End   load.Sample `json:"end"`
}

// Max is the higher of the two one-minute load averages.
func (l *RunLoad) Max() float64 { return max(l.Start.One, l.End.One) }

// maxFile bounds a run's record and result as analyze reads them: each is
// a few KB, but the directory is the user's to name (report, diff).
const maxFile = 64 << 20

// readFile reads a file of a run's evidence, at most maxFile bytes of
// it: a file longer is an error naming the limit, and one that is not a
// regular file (a FIFO, a link to /dev/zero) is refused before it is
// read (jsonl.Open), so that no reader of a directory blocks on it.
func readFile(path string) ([]byte, error) {
	f, err := jsonl.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return cli.ReadAtMost(f, path, maxFile)
}

// ReadRecord reads the record of a run dir.
func ReadRecord(dir string) (Record, error) {
	var r Record
	path := evidence.RunDir(dir).Record()
	b, err := readFile(path)
	if err != nil {
		return r, fmt.Errorf("reading run record: %w", err)
	}
	if err := json.Unmarshal(b, &r); err != nil {
		return r, fmt.Errorf("%s: %w", path, err)
	}
	return r, nil
}

// Evidence is what the client of the run in dir may read of it
// (client.Observer).
func (r Record) Evidence(dir string) client.Evidence {
	return client.Evidence{Dir: dir, Servers: r.Row.ConfigNames(), Arm: r.Arm, Prompt: r.Row.Prompt, Model: r.Row.Model}
}
