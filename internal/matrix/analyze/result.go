package analyze

import (
	"encoding/json"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/instrlab/instrlab/internal/client"
	"github.com/instrlab/instrlab/internal/evidence"
	"github.com/instrlab/instrlab/internal/fakeapi"
	"github.com/instrlab/instrlab/internal/unit"
	"github.com/instrlab/instrlab/lab"
)

// A Result is what the evidence of one run shows. Every field is derived
// from files in the run's directory (see Run).
type Result struct {
	Client string `json:"client"` // name@version
	// Arm is the arm the client was run in (what was set; what the
	// client said of it is in Observation).
	Arm   ArmFacts `json:"arm"`
	Row   string   `json:"row"`
	Label string   `json:"label"`
	// Model and ModelWhy are the model the runner had the client name
	// for its row's calls, and why (Record.Model).
	Model    string `json:"model,omitempty"`
	ModelWhy string `json:"model_why,omitempty"`
	Repeat   int    `json:"repeat"`
	Dir      string `json:"dir"`
	Status   string `json:"status"` // ok or failed
	Reason   string `json:"reason,omitempty"`
	Live     bool   `json:"live,omitempty"`
	Instr    string `json:"instr"`
	// Eras is the lab's -eras; its key was "era" before results.v2.json
	// (UnmarshalJSON).
	Eras lab.Mode `json:"eras"`
	Sent int      `json:"sent"`
	// Transport is how the client reached the server (Record.Transport:
	// "stdio" or "http"; "" in evidence from before it was recorded), and
	// HTTP what the message log shows of a run over HTTP.
	Transport string     `json:"transport,omitempty"`
	HTTP      *HTTPFacts `json:"http,omitempty"`
	// Server names a user's server (Row.Server); ServerTexts are its texts
	// from the proxy's log, and Tools what became of each tool's
	// description in the first main request.
	Server      string       `json:"server,omitempty"`
	ServerTexts *ServerTexts `json:"server_texts,omitempty"`
	// ServerStart is where a user's stdio server started and the names
	// of its variables (Record.Server), as check records its own.
	ServerStart *ServerStart `json:"server_start,omitempty"`
	Tools       []ToolFacts  `json:"tools,omitempty"`
	// Servers are a row's several lab servers (Row.Servers), in the
	// config's order: each one's text in the first main request.
	Servers []ServerResult `json:"servers,omitempty"`
	// Surface is what of the server's tool results, schemas and names
	// reached the model, for a row that calls tools or serves the lab's
	// surface (docs/surface.md).
	Surface *SurfaceFacts `json:"surface,omitempty"`
	NoDelta bool          `json:"no_delta,omitempty"`
	// Plain is Row.Plain: what was cut is the client's default cap.
	Plain bool `json:"plain,omitempty"`

	// First is the first main model request (the first that offers
	// tools, see mainRequests); Requests all of them.
	First    *RequestFacts  `json:"first,omitempty"`
	Requests []RequestFacts `json:"requests"`
	// Other lists non-model requests, as "HEAD /api/hello 404".
	Other []string `json:"other,omitempty"`
	// Reader is what a perfect reader of the last model request answers.
	Reader fakeapi.Answer `json:"reader"`
	// ModelAnswer is the client's final text (the fake's line offline, the
	// model's own answer live).
	ModelAnswer string `json:"model_answer,omitempty"`
	// RequestKey identifies the normalised first request, to compare repeats.
	RequestKey string `json:"request_key,omitempty"`
	// Session compares each main request with the one before (the turns
	// of the conversation): what of the prefix, the instructions and the
	// lab's tools stayed; nil for a run of one main request.
	Session *Session `json:"session,omitempty"`

	// Transcript is where the client's own transcript shows the text:
	// the instruction blocks it recorded adding, located like a request.
	Transcript []Placement `json:"transcript,omitempty"`

	// Netns is set when the client ran in a loopback-only network
	// namespace; OutsideNames lists the names it asked the namespace's
	// resolver that it answered "no such host", in the order first asked;
	// VendorHosts those it resolved to the fake (the direct arm).
	Netns        bool     `json:"netns,omitempty"`
	OutsideNames []string `json:"outside_names,omitempty"`
	VendorHosts  []string `json:"vendor_hosts,omitempty"`

	Handshake Handshake `json:"handshake"`
	// Timing is when the server became ready against the first request,
	// and whether the result depends on it.
	Timing      Timing             `json:"timing"`
	Observation client.Observation `json:"observation"`
	ClientMS    float64            `json:"client_ms"`
	ClientCPUMS float64            `json:"client_cpu_ms,omitempty"` // Record.ClientCPUMS
	Warnings    []string           `json:"warnings,omitempty"`
}

// UnmarshalJSON reads a result, and the lab's eras under their key before
// results.v2.json, "era" (with "dual" for both), so that the evidence of
// earlier runs and sweeps reads as a new run's.
func (r *Result) UnmarshalJSON(b []byte) error {
	type plain Result
	var v struct {
		plain
		Era lab.Mode `json:"era"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*r = Result(v.plain)
	if r.Eras == "" {
		r.Eras = v.Era
	}
	return nil
}

// ArmFacts name the arm a run was in and how it was set.
type ArmFacts struct {
	Name    string `json:"name,omitempty"`
	Default bool   `json:"default,omitempty"`
	How     string `json:"how,omitempty"`
	// Model and Approval are the arm's (client.Arm), when it sets them.
	Model    string `json:"model,omitempty"`
	Approval string `json:"approval,omitempty"`
}

// ArmFactsOf are the facts of a; a record written before arms existed has
// the zero Arm, which was the default.
func ArmFactsOf(a client.Arm) ArmFacts {
	if a.Name == "" {
		return ArmFacts{Name: client.DefaultArmName, Default: true, How: a.How()}
	}
	return ArmFacts{Name: a.Name, Default: a.Default, How: a.How(), Model: a.Model, Approval: a.Approval}
}

// Who names the client and, when not its default, the arm, as in
// "claude-code@2.1.285 [arm v1]": the column group of the tables.
func (r *Result) Who() string { return Who(r.Client, r.Arm.Name, r.Arm.Default) }

// Who names client (name@version) and, when it is not the default, its
// arm, as Result.Who does.
func Who(client, arm string, isDefault bool) string {
	if isDefault || arm == "" {
		return client
	}
	return client + " [arm " + arm + "]"
}

// RequestFacts describe one model request.
type RequestFacts struct {
	Seq    int       `json:"seq"`
	Time   time.Time `json:"time"`
	API    string    `json:"api"`
	Chars  int       `json:"chars"`
	Tokens int       `json:"tokens"` // estimated with tokens.Encoding
	Bytes  int       `json:"bytes"`
	// Tools lists the tool names offered.
	Tools []string `json:"tools"`
	// Side marks a request that offers no tools while others do (a
	// title or a routing classifier, not the agent's turn).
	Side bool `json:"side,omitempty"`
	// NamesLabTool says the request names one of the lab's own tools in
	// a text (a list of deferred tools: Droid 0.225.2's system reminder,
	// "Deferred tools: … lab___lookup_part"), set on every request of a
	// run whose tools were not located one by one (Result.Tools): the
	// server was connected by then (a late server's tools show in a later
	// request so).
	NamesLabTool bool        `json:"names_lab_tool,omitempty"`
	Placements   []Placement `json:"placements,omitempty"`
	// Parts is the request as the model reads it, in order: set for the
	// first main request only (the report draws it).
	Parts []Part `json:"parts,omitempty"`
}

// A Part is a run of a request's segments: one segment, or consecutive
// tool definitions together.
type Part struct {
	Kind  fakeapi.Kind `json:"kind"`
	Count int          `json:"count"`
	Path  string       `json:"path"` // of its first segment
	Chars int          `json:"chars"`
}

// layout groups the segments of a request into Parts.
func layout(ctx fakeapi.Context) []Part {
	var parts []Part
	for _, s := range ctx {
		n := utf8.RuneCountInString(s.Text)
		if k := len(parts) - 1; k >= 0 && s.Kind == fakeapi.KindToolDefinition && parts[k].Kind == s.Kind {
			parts[k].Count++
			parts[k].Chars += n
			continue
		}
		parts = append(parts, Part{Kind: s.Kind, Count: 1, Path: s.Path, Chars: n})
	}
	return parts
}

// Sample is the server text of the first request's best placement and
// what arrived of it, for unit.Infer, with the client's own report of the
// cut when it logged one; ok is false when no text arrived. The text is
// the lab's generated one, or, for a user's server or a file, what the
// server's reply carried (ServerTexts).
func (r *Result) Sample() (unit.Sample, bool) {
	b := r.First.Best()
	if b == nil {
		return unit.Sample{}, false
	}
	text, ok := "", false
	if r.ServerTexts != nil {
		text, ok = r.ServerTexts.Instructions[b.Reply]
	} else if in, err := lab.ParseInstructions(r.Instr); err == nil {
		if t, err := in.For(b.Reply); err == nil {
			text, ok = t.Text, true
		}
	}
	if !ok || text == "" {
		return unit.Sample{}, false
	}
	switch {
	case b.Full: // whole, but maybe for white space it started or ended with: no cut
		return unit.Sample{Text: text, Kept: text}, true
	case b.Trimmed > 0: // cut after the white space it started with was trimmed
		text = strings.TrimLeftFunc(text, unicode.IsSpace)
	}
	s := unit.Sample{Text: text, Kept: unit.CodePoint.Prefix(text, b.Kept)}
	if s.Cut() && len(r.Observation.Truncations) == 1 {
		// One report of one cut: the client's, of this text (a run of
		// several servers is not a plain run).
		t := r.Observation.Truncations[0]
		s.Said = &unit.Said{From: t.From, To: t.To}
	}
	return s, true
}

// UnitFinding is what a client's default cap counts: unit.Infer over the
// plain runs (Row.Plain) among results that finished and in which some text
// arrived. Give it the runs of one client and arm.
func UnitFinding(results []*Result) unit.Finding {
	var samples []unit.Sample
	for _, r := range results {
		if !r.Plain || r.Status != "ok" {
			continue
		}
		if s, ok := r.Sample(); ok {
			samples = append(samples, s)
		}
	}
	return unit.Infer(samples)
}

// Best is the placement that kept the most of the server's text, or nil.
func (q *RequestFacts) Best() *Placement {
	if q == nil {
		return nil
	}
	var best *Placement
	for i := range q.Placements {
		if best == nil || q.Placements[i].Kept > best.Kept {
			best = &q.Placements[i]
		}
	}
	return best
}

// Unreadable is the result of a run whose record cannot be read (an empty
// or torn run.json): failed, saying why, so that a table shows the run
// instead of dropping it. clientDir is the name of its client's directory
// (evidence.ArmClient).
func Unreadable(dir, clientDir, row string, repeat int, cause error) Result {
	c, arm := evidence.SplitArmClient(clientDir)
	return Result{Client: c, Arm: ArmFacts{Name: arm, Default: arm == ""}, Row: row, Repeat: repeat, Dir: dir, Status: StatusFailed,
		Reason: "evidence unreadable: " + cause.Error(), Requests: []RequestFacts{}, Reader: fakeapi.Answer{Last: -1}}
}
