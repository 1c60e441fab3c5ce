package probe

import (
	"encoding/json"
	"math"
	"slices"
	"time"

	"github.com/instrlab/instrlab/internal/fingerprint"
	"github.com/instrlab/instrlab/lab"
)

// An Era is one of the two protocol eras a server may speak: lab's Era,
// the one vocabulary of eras, named here too since every result carries
// one.
type Era = lab.Era

// The eras.
const (
	Legacy = lab.Legacy
	Modern = lab.Modern
)

// Protocol versions the probes send.
const (
	LegacyVersion = "2025-11-25"
	ModernVersion = lab.ModernVersion
)

// An Outcome says how a server answered the first request of an era.
type Outcome string

// The outcomes.
const (
	OutcomeOK      Outcome = "ok"       // a result
	OutcomeError   Outcome = "error"    // a JSON-RPC error
	OutcomeExit    Outcome = "exit"     // the process exited, or closed stdout, without answering
	OutcomeSilent  Outcome = "silent"   // no answer within the timeout
	OutcomeNoStart Outcome = "no-start" // could not start the command or reach the URL
	OutcomeInvalid Outcome = "invalid"  // answered with something that is not MCP
)

// An EraResult is what one era's conversation with a server showed.
type EraResult struct {
	Era     Era     `json:"era"`
	Method  string  `json:"method"` // the first request: initialize or server/discover
	Outcome Outcome `json:"outcome"`
	// Detail is one line on what happened when Outcome is not ok.
	Detail   string    `json:"detail,omitempty"`
	Error    *RPCError `json:"error,omitempty"`
	ExitCode *int      `json:"exit_code,omitempty"`

	ProtocolVersion   string          `json:"protocol_version,omitempty"`
	SupportedVersions []string        `json:"supported_versions,omitempty"`
	ServerInfo        *Implementation `json:"server_info,omitempty"`
	Capabilities      []string        `json:"capabilities,omitempty"`
	// ToolsListChanged says the capabilities declare tools.listChanged:
	// the server may announce a change of its tools.
	ToolsListChanged bool `json:"tools_list_changed,omitempty"`
	// ResourcesSubscribe says the capabilities declare
	// resources.subscribe: the server may announce a change of a resource
	// a client subscribed to.
	ResourcesSubscribe bool `json:"resources_subscribe,omitempty"`
	// Instructions is nil when the reply had no instructions field.
	Instructions *string `json:"instructions,omitempty"`
	Tools        []Tool  `json:"tools,omitempty"`
	ToolsError   string  `json:"tools_error,omitempty"`
	// Relisted are the tool names of a second tools/list on the same
	// connection, when they are not Tools' names in the same order: a
	// server whose tool order is not deterministic. Nil when the same, or
	// when the second listing failed (not measured).
	Relisted []string `json:"tools_relisted,omitempty"`
	// Calls are the tools called (Options.Calls), after the tools were
	// listed: in the legacy era, or in the modern one when the legacy
	// era got no initialize result (a modern-only server).
	Calls []CallResult `json:"calls,omitempty"`

	// FirstReply is the time from spawn (stdio) or the first request
	// (HTTP) to the first JSON-RPC reply; zero when none came.
	FirstReply Millis `json:"first_reply_ms"`
	// Elapsed is the time the era's conversation took.
	Elapsed Millis `json:"elapsed_ms"`
	// Stray are lines on stdout that are not JSON-RPC messages (clipped).
	Stray []string `json:"stray,omitempty"`
	// Problems are ways the replies differ from the schema of their era.
	Problems []string `json:"problems,omitempty"`
	// Stderr is the end of what the server wrote to stderr.
	Stderr string `json:"stderr,omitempty"`
}

// OK reports whether the era's first request got a result.
func (r EraResult) OK() bool { return r.Outcome == OutcomeOK }

// Answered reports whether the server sent any JSON-RPC reply.
func (r EraResult) Answered() bool { return r.Outcome == OutcomeOK || r.Outcome == OutcomeError }

// An Implementation is a server's name and version.
type Implementation struct {
	Name    string `json:"name"`
	Version string `json:"version,omitempty"`
}

// A Tool is one tool a server lists.
type Tool struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	// Meta is the tool's _meta object, by key (a profile may say what a
	// client does with a key: profiles.Limit.Meta).
	Meta map[string]json.RawMessage `json:"_meta,omitempty"`
	// InputSchema and OutputSchema are the tool's schemas, when each is
	// a JSON object (what check predicts a client does with them); not
	// in check's JSON.
	InputSchema  json.RawMessage `json:"-"`
	OutputSchema json.RawMessage `json:"-"`
	// Annotations are the tool's annotations, when an object (what check
	// predicts a client's approval mode does with a call); not in check's
	// JSON.
	Annotations map[string]any `json:"-"`
	// TaskSupport is the tool's execution.taskSupport when a string
	// ("required", "optional", "forbidden": whether a client is to call
	// it as a task, the 2025-11-25 protocol's tasks); not in check's JSON.
	TaskSupport string `json:"-"`
}

// ToolsPrint is the fingerprint of the era's tool list (none when
// tools/list failed), as run's results name theirs.
func (e EraResult) ToolsPrint() fingerprint.Tools {
	ts := make([]fingerprint.Tool, len(e.Tools))
	for i, t := range e.Tools {
		ts[i] = fingerprint.Tool{Name: t.Name, Description: t.Description}
	}
	return fingerprint.ToolsOf(ts)
}

// A Result is everything probe learnt of one server.
type Result struct {
	Target Target    `json:"target"`
	Legacy EraResult `json:"legacy"`
	Modern EraResult `json:"modern"`
	// Survival is what the server did with the modern probe.
	Survival Survival `json:"probe_survival"`
	Startup  Startup  `json:"startup"`
}

// Calls are the tools called, in whichever era called them (the legacy
// one, or the modern one for a modern-only server): each tool once.
func (r Result) Calls() []CallResult {
	return append(slices.Clone(r.Legacy.Calls), r.Modern.Calls...)
}

// Millis is a duration that encodes in JSON as milliseconds.
type Millis time.Duration

// MarshalJSON encodes d as milliseconds with one decimal.
func (d Millis) MarshalJSON() ([]byte, error) {
	ms := math.Round(float64(d)/float64(time.Millisecond)*10) / 10
	return json.Marshal(ms)
}

// UnmarshalJSON decodes milliseconds.
func (d *Millis) UnmarshalJSON(b []byte) error {
	var ms float64
	if err := json.Unmarshal(b, &ms); err != nil {
		return err
	}
	*d = Millis(ms * float64(time.Millisecond))
	return nil
}

// D returns d as a time.Duration.
func (d Millis) D() time.Duration { return time.Duration(d) }
