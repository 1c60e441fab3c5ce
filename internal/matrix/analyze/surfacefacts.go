package analyze

import (
	"fmt"
	"slices"

	"github.com/instrlab/instrlab/internal/evidence"
	"github.com/instrlab/instrlab/internal/fakeapi"
	"github.com/instrlab/instrlab/internal/matrix"
	"github.com/instrlab/instrlab/internal/surface"
	"github.com/instrlab/instrlab/lab"
)

// SurfaceFacts are what of a server's surface reached the model in a run
// whose row calls tools or serves the lab's surface (docs/surface.md).
type SurfaceFacts struct {
	Calls []surface.CallFacts `json:"calls,omitempty"`
	Tools []surface.ToolDef   `json:"tools,omitempty"`
	// Texts are the server's other texts (prompts, resources, templates,
	// tools' titles, annotations and _meta strings) and where each was in
	// the first main request, or later.
	Texts []surface.TextFact `json:"texts,omitempty"`
	// Unasked are the lists (surface.List*) a server declared and the
	// client never asked for, of every server of the run.
	Unasked []string `json:"unasked,omitempty"`
	// NotCalled are the row's scripted calls the run never made, each
	// with why (a client that did not call is not one that dropped a
	// result).
	NotCalled []surface.Missed `json:"not_called,omitempty"`
	// OwnCalls are the calls made of the client's own tools (its resource
	// tools), by the names it gave them; Reads what of each resource the
	// server was asked to read reached the model.
	OwnCalls []string           `json:"own_calls,omitempty"`
	Reads    []surface.ReadFact `json:"reads,omitempty"`
	// Protocol is what the client did with what the server asked and
	// announced while its tools ran (docs/protocol.md).
	Protocol *surface.ProtocolFacts `json:"protocol,omitempty"`
}

// surfaceFacts analyses the surface of a run of row: the calls of its
// script, the definitions of every tool its servers listed and their
// other texts. Several lab
// servers' logs are read one after the other. nil for a row that neither
// serves the lab's surface nor calls a user's server's tools (-call).
func surfaceFacts(dir string, row matrix.Row, reqs []fakeapi.Request, msgs []LabMessage) (*SurfaceFacts, []string) {
	if row.Surface == "" && (row.Server == "" || len(row.Script) == 0) {
		return nil, nil // a row of the lab's own texts, or one whose script calls the client's tools (Bash)
	}
	rs, warns := surface.Contexts(reqs)
	log := entries(msgs)
	for i, s := range row.LabServers() {
		if i == 0 {
			continue // the run's lab log, msgs
		}
		more, w, err := ReadLabLog(evidence.RunDir(dir).ServerLog(i, s.Name))
		if err != nil {
			w = append(w, err.Error())
		}
		warns = append(warns, w...)
		log = append(log, entries(more)...)
	}
	defs := surface.Tools(rs, log, row.ServerName())
	calls := surface.Calls(rs, log)
	missed := surface.NotCalled(row.Script, calls, defs)
	if row.Server == "" { // a lab row's calls of the client's own tools (its resource tools), which each client has or not
		missed = slices.DeleteFunc(missed, func(m surface.Missed) bool { return m.Why == surface.MissedNotListed })
	}
	return &SurfaceFacts{Calls: calls, Tools: defs, Texts: surface.Texts(rs, log, defs), Unasked: surface.Unasked(log),
		NotCalled: missed, OwnCalls: surface.OwnCalls(rs, log), Reads: surface.Reads(rs, log), Protocol: surface.Protocol(rs, log, row.ServerName())}, warns
}

// notCalled says, as warnings, which of the row's scripted calls the run
// never made and why; a call never offered, or offered and not made, of
// a server that became ready only after the client's first request
// (Droid 0.225.2 does not wait for a server) says so: the run raced.
func notCalled(res *Result) {
	if res.Surface == nil {
		return
	}
	late := ""
	if l := res.Timing.LeadMS; l != nil && *l < 0 {
		late = fmt.Sprintf("; the server became ready %.0f ms after the client's first request (timing-sensitive)", -*l)
	}
	for i, m := range res.Surface.NotCalled {
		if m.Why != surface.MissedNotListed {
			res.Surface.NotCalled[i].Why += late
		}
		res.Warnings = append(res.Warnings, fmt.Sprintf("did not call %s: %s", m.Tool, res.Surface.NotCalled[i].Why))
	}
}

// entries are msgs as the lab's log entries the surface analysis reads.
func entries(msgs []LabMessage) []lab.Entry {
	out := make([]lab.Entry, len(msgs))
	for i, m := range msgs {
		out[i] = lab.Entry{Time: m.Time, Dir: m.Dir, Kind: m.Kind, Method: m.Method, ID: m.ID, Meta: m.Meta, Bytes: m.Bytes, Body: m.Body, Count: m.Count}
	}
	return out
}
