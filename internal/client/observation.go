package client

import (
	"encoding/json"

	"github.com/instrlab/instrlab/internal/evidence"
)

// Evidence is everything a client may read of a finished run to make its
// Observation: the run's evidence directory, with the client's HOME,
// TMPDIR and working directory under it (evidence.RunDir), the servers of
// its config, and what the run asked of it. The analysis fills every field
// from the run's record.
type Evidence struct {
	// Dir is the run's evidence directory.
	Dir string
	// Servers names the MCP servers of the client's config, in its order;
	// Primary is the first.
	Servers []string
	// Arm is the arm the client was run in.
	Arm Arm
	// Prompt and Model are what the run gave the client (Model empty for
	// its default).
	Prompt, Model string
}

// Files is the run's evidence directory, which names its files.
func (e Evidence) Files() evidence.RunDir { return evidence.RunDir(e.Dir) }

// Primary is the name of the run's first server: the one an Observation
// reads by name. A run of several servers finds the others' texts in the
// captured requests.
func (e Evidence) Primary() string {
	if len(e.Servers) == 0 {
		return ""
	}
	return e.Servers[0]
}

// An Observation is what a client's own evidence says about a run, in
// terms shared by every client. Empty fields mean the evidence did not say.
type Observation struct {
	// ServerStatus is the lab server's status as the client reported it
	// (for Claude Code, mcp_servers[].status of the init event).
	ServerStatus string `json:"server_status,omitempty"`
	// Model is the model the client says it used.
	Model string `json:"model,omitempty"`
	// Answer is the final text the client printed.
	Answer string `json:"answer,omitempty"`
	// ResultError is set when the client reported the run as an error.
	ResultError string `json:"result_error,omitempty"`
	// CostUSD is the cost the client computed, when it reports one.
	CostUSD *float64 `json:"cost_usd,omitempty"`
	// Truncations are the client's own reports of cutting instructions.
	Truncations []Truncation `json:"truncations,omitempty"`
	// Era and NegotiatedVersion are what the client logged about the
	// connection to the lab server: the protocol era, in its own words
	// (its key was "protocol_era" before results.v2.json).
	Era               string `json:"era,omitempty"`
	NegotiatedVersion string `json:"negotiated_version,omitempty"`
	// RuntimeArm and ArmSource are the arm the client says it is in and
	// where it says that came from (Claude Code's "mcp runtime arm: v2
	// (source: default)"); empty when its output does not say.
	RuntimeArm string `json:"runtime_arm,omitempty"`
	ArmSource  string `json:"arm_source,omitempty"`
	// Instructions are the instruction blocks the client's transcript says
	// it added to the context, in order.
	Instructions []InstructionsBlock `json:"instructions,omitempty"`
	// Files lists the evidence files read, relative to the run dir.
	Files []string `json:"files,omitempty"`
	// Warnings are problems met while reading, as "file:line: message".
	Warnings []string `json:"warnings,omitempty"`
}

// A Truncation is a client's own report that it cut a server's text.
type Truncation struct {
	Server string `json:"server"`
	From   int    `json:"from"`
	To     int    `json:"to"`
	Where  string `json:"where"` // file:line of the report
}

// An InstructionsBlock is one block of server instructions a client
// recorded adding to the model's context.
type InstructionsBlock struct {
	Server string `json:"server,omitempty"`
	Text   string `json:"text"`
	Role   string `json:"role,omitempty"` // the role the client rendered it with
	Where  string `json:"where"`          // file:line
}

// ArmSaid is the arm the client's output names, as "v2 (source:
// default)"; "" when it names none.
func (o Observation) ArmSaid() string {
	if o.RuntimeArm == "" || o.ArmSource == "" {
		return o.RuntimeArm
	}
	return o.RuntimeArm + " (source: " + o.ArmSource + ")"
}

// UnmarshalJSON reads an observation, and the era under its key before
// results.v2.json, "protocol_era".
func (o *Observation) UnmarshalJSON(b []byte) error {
	type plain Observation
	var v struct {
		plain
		ProtocolEra string `json:"protocol_era"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*o = Observation(v.plain)
	if o.Era == "" {
		o.Era = v.ProtocolEra
	}
	return nil
}
