package profiles

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/instrlab/instrlab/internal/unit"
)

// A Profile is what one client version does with a server's text.
//
// A profile file names its client as check -json does (MarshalJSON):
// "client" is ID(), "title" the display name with the version; a file
// written before 2026-12-06 says "client" (the name), "name" and
// "version", and still reads.
type Profile struct {
	Client  string `json:"-"` // machine name, e.g. "claude-code"
	Name    string `json:"-"` // display name, e.g. "Claude Code"
	Version string `json:"-"` // the client version the evidence is for
	// Model is the model the measured requests named (the client's
	// default unless the runs chose one); "" when not recorded.
	Model string `json:"model,omitempty"`
	// API is the model API its measured requests used, by the fake
	// API's name for it (anthropic-messages, openai-chat,
	// openai-responses, gemini): what DocumentedFor looks up. "" when
	// none was recorded.
	API string `json:"api,omitempty"`

	Instructions Limit `json:"instructions"`
	// Render is how the kept instructions are put into the model's context.
	Render Render `json:"render"`
	// ToolDescriptions is the limit on each tool's description.
	ToolDescriptions Limit     `json:"tool_descriptions"`
	Handshake        Handshake `json:"handshake"`
	Startup          Startup   `json:"startup"`
	// Budgets are the client's budgets measured as numbers (instrlab
	// budget): how long it waits for a server, and what past it.
	Budgets []Budget `json:"budgets,omitempty"`
	// Failures are what the client did when the server answered one of
	// its methods with an error, per method measured (FailureMethods);
	// a method not listed was not measured.
	Failures []Failure `json:"failures,omitempty"`
	// Surface is what the client did with tool results, input schemas
	// and tool names in runs of the surface matrix; nil when none ran.
	Surface *Surface `json:"surface,omitempty"`
	// Approvals are what the client did with calls of tools by their
	// annotations, one per approval mode measured (its arms).
	Approvals []Approval `json:"approvals,omitempty"`
	// Protocol is what the client did with what a server asked and
	// announced while its tools ran; nil when not measured.
	Protocol *Protocol `json:"protocol,omitempty"`
	// Evidence is where every value above came from.
	Evidence []Evidence `json:"evidence"`
	// Unmeasured lists what the evidence does not cover, in plain words.
	Unmeasured []string `json:"unmeasured,omitempty"`
	// Variants are what changes when the client runs another way: a
	// flag, a setting, another model, another arm. Each was measured on
	// its own.
	Variants []Variant `json:"variants,omitempty"`
	// HTTP is what the client does with a server over Streamable HTTP,
	// from runs of the lab over HTTP; nil when none was measured.
	HTTP *HTTPView `json:"http,omitempty"`
	// Arm is the arm of the client the profile's own values hold in (its
	// default, as in "v2"); "" when the client declares no arms.
	Arm string `json:"arm,omitempty"`

	// Under is set on a profile Expand made from a variant: the
	// variant's When. Way, set by Expand, names in a few words the way
	// of running the client the profile holds for, beside the client's
	// other ways: a variant's arm, model or flag ("probe-env", "model
	// gpt-5.5", "lazy-stdio + model gpt-5.5"); for the profile itself,
	// its default arm when it has variants in other arms ("v2"), else
	// "". Neither is part of the file format.
	Under string `json:"-"`
	Way   string `json:"-"`
	// For, when set, is the version a user asked for that has no profile
	// of its own and takes this one (Select, from the atlas's ranges);
	// ForNote says why. Neither is part of the file format.
	For     string `json:"-"`
	ForNote string `json:"-"`
	// SurfaceWith, set by Expand on a view without the surface because
	// the surface was measured with another model, is that model. Not
	// part of the file format.
	SurfaceWith string `json:"-"`
}

// A Limit is a cap on a text and how the client applies it.
type Limit struct {
	// Cap is the default number of Unit the client keeps; 0 means no cap,
	// or none seen when AtLeast is set.
	Cap int `json:"cap"`
	// AtLeast, with Cap 0, is the longest text the evidence saw kept whole:
	// a lower bound on a cap that was never reached.
	AtLeast int `json:"at_least,omitempty"`
	// Whole, with Cap, is the longest text the evidence saw kept whole
	// though longer than Cap, in Unit: the client cuts only a text longer
	// than a threshold of at least Whole, and keeps Cap of it (opencode
	// 1.18.33's code mode: 120 characters whole, 121 cut to 119 and
	// "..."). 0: a text longer than Cap is cut.
	Whole int `json:"whole,omitempty"`
	// Unit is what Cap counts, a unit.Unit: "codepoint", "utf16", "byte",
	// "grapheme" or "token".
	Unit string `json:"unit"`
	// UnitNote says how the unit was measured (unit.Finding's text), or
	// that it was not.
	UnitNote string `json:"unit_note,omitempty"`
	// Marker is appended to a cut text.
	Marker string `json:"marker,omitempty"`
	// Lines is what the client keeps of a text of several lines: LinesAll
	// or LinesFirst (the first line alone, before any cap: Codex CLI
	// 0.171.0); "" when not measured (a lines-* row, lab -instr lines:N).
	Lines string `json:"lines,omitempty"`
	// LineBreak, with Lines first, is set when the line break after the
	// first line reached the model too (Codex CLI 0.171.0's
	// instructions, a line of its listing); a client that trims the line
	// and quotes it keeps none (Qwen Code 0.24.4's tool descriptions).
	LineBreak bool `json:"line_break,omitempty"`
	// Trim, on tool descriptions, is what the client removed of the white
	// space around a description (the lab's name_padded): TrimNone,
	// TrimStart, TrimEnd or TrimBoth, before any lines rule or cap; ""
	// when not measured.
	Trim string `json:"trim,omitempty"`
	// Setting is the user setting that changes Cap, if any.
	Setting *Setting `json:"setting,omitempty"`
	// Measured is false when the values come from documentation only.
	Measured bool `json:"measured"`
	// Note is a caveat on the values, in plain words.
	Note string `json:"note,omitempty"`

	// Via, on tool descriptions, is how they reached the model in the
	// measured runs, in the run analysis's words (analyze.ToolFacts.Via):
	// "definition", "listing", "name only" or "server namespace"; ""
	// when not measured. Wrapper is what a listing puts before a tool's
	// line (its heading), when they came in one.
	Via     string `json:"via,omitempty"`
	Wrapper string `json:"wrapper,omitempty"`
	// Meta, on tool descriptions, is what became of a tool whose _meta
	// held a key, per key measured: the limit of that tool alone, in
	// runs that gave one tool the key (its other fields are as above).
	// A key not listed was not measured.
	Meta []MetaLimit `json:"meta,omitempty"`
	// Unsent, on tool descriptions, is set when the runs measured that
	// none reached the model (Via says what did): there is then no cap
	// to apply, and Cap, if set, is what was measured or documented for
	// a way of running the client that sends them (Note says which).
	Unsent bool `json:"unsent,omitempty"`
}

// A MetaLimit is what a client does with the description of a tool whose
// _meta holds Key with Value.
type MetaLimit struct {
	Key   string          `json:"key"`
	Value json.RawMessage `json:"value"`
	// Runs is how many runs measured it.
	Runs  int   `json:"runs"`
	Limit Limit `json:"limit"`
}

// MetaOf is the limit of a tool whose _meta is meta: that of the first
// key the profile measured with the value meta holds, else l itself. A
// key's limit whose runs did not measure lines takes l's lines rule when
// it reached the model the same way (Via): the rule belongs to the
// rendering, which the key did not change (Qwen Code 0.24.4 lists a tool
// with anthropic/alwaysLoad as any other, first line only, so a
// description that starts with a line break gives the model nothing).
func (l Limit) MetaOf(meta map[string]json.RawMessage) (Limit, string) {
	for _, m := range l.Meta {
		if v, ok := meta[m.Key]; ok && bytes.Equal(compact(v), compact(m.Value)) {
			k := m.Limit
			if k.Lines == "" && k.Via == l.Via {
				k.Lines, k.LineBreak = l.Lines, l.LineBreak
			}
			if k.Trim == "" && k.Via == l.Via {
				k.Trim = l.Trim
			}
			return k, m.Key
		}
	}
	return l, ""
}

func compact(v json.RawMessage) []byte {
	var b bytes.Buffer
	if json.Compact(&b, v) != nil {
		return v
	}
	return b.Bytes()
}

// FailureMethods are the methods a profile's Failures may name: the
// methods a server may fail before a client can use it.
var FailureMethods = []string{"initialize", "server/discover", "tools/list"}

// A Failure is what a client did, in measured runs, when a server answered
// Method with a JSON-RPC error (the lab's -fail) and everything else as
// usual.
type Failure struct {
	Method string `json:"method"`
	// Runs is how many runs measured it; Sent how many of them sent the
	// method at all (a client that does not probe never sends
	// server/discover), Tries the most times one run sent it.
	Runs  int `json:"runs"`
	Sent  int `json:"sent"`
	Tries int `json:"tries,omitempty"`
	// Exits is set when the client ended its session on the failure in
	// every run that sent the method: no model request, or a failed exit.
	Exits bool `json:"exits,omitempty"`
	// Instructions and Tools say whether the server's instructions, and
	// any of its tools, reached the first model request after the
	// failure, in every run that sent the method.
	Instructions bool `json:"instructions"`
	Tools        bool `json:"tools"`
	// Reply is the reply whose instructions reached the model,
	// "initialize" or "discover" (server/discover failed: "initialize"
	// when the client fell back), as in run's placements; its key was
	// "era" in profiles written before 2026-12-06 (UnmarshalJSON).
	Reply string `json:"reply,omitempty"`
	Note  string `json:"note"`
}

// UnmarshalJSON reads a failure, and its reply under its key before
// 2026-12-06, "era", so that a profile written then still reads.
func (f *Failure) UnmarshalJSON(b []byte) error {
	type plain Failure
	var v struct {
		plain
		Era string `json:"era"`
	}
	if err := decodeStrict(b, &v); err != nil {
		return err
	}
	*f = Failure(v.plain)
	if f.Reply == "" {
		f.Reply = v.Era
	}
	return nil
}

// Failure is what p measured of a failure of method, nil when it did not.
func (p Profile) Failure(method string) *Failure {
	for i := range p.Failures {
		if p.Failures[i].Method == method {
			return &p.Failures[i]
		}
	}
	return nil
}

// A Setting is an environment variable that changes a cap.
type Setting struct {
	Env string `json:"env"`
	// Syntax says which values the client accepts; anything else is
	// ignored and Cap applies. See ParseSetting.
	Syntax string `json:"syntax"`
}

// Setting syntaxes.
const (
	// SyntaxPlainDigits accepts a positive whole number in plain digits
	// ("25000", not "25,000" or "25k").
	SyntaxPlainDigits = "plain-digits"
)

// UnitCodepoint is the unit of a limit whose unit was not told apart from
// code points.
const UnitCodepoint = string(unit.CodePoint)

// Render is how a client renders instructions: Head, then for each server
// Server with {name} and {text} filled in, joined by Separator, then Tail.
type Render struct {
	Placement string `json:"placement"` // where the block goes, in plain words
	Head      string `json:"head"`
	Server    string `json:"server"`
	Separator string `json:"separator"`
	Tail      string `json:"tail"`
	// MultiServerMeasured is false when only one server per run was seen:
	// Separator, the order and any shared budget are then unknown.
	MultiServerMeasured bool `json:"multi_server_measured"`
	// Unused is set when the client received the text (the server's
	// reply holds it) and put none of it in any model request.
	Unused bool   `json:"unused,omitempty"`
	Note   string `json:"note,omitempty"`
}

// places are the short names of the placements derive writes, by the
// words they begin with.
var places = []struct{ words, short string }{
	{"the top-level system prompt", "system prompt"},
	{`a role "system" message`, "system message"},
	{`a role "developer" message`, "developer message"},
	{"a user turn", "user turn"},
	{"a tool definition", "tool definition"},
	{"nowhere", "nowhere"},
	{"not measured", "not measured"},
}

// Where is Placement in a word or two, for a table: "system prompt",
// "system message", "developer message", "user turn", "tool
// definition", "nowhere" or "not measured"; another placement up to its
// first parenthesis.
func (r Render) Where() string {
	for _, p := range places {
		if strings.HasPrefix(r.Placement, p.words) {
			return p.short
		}
	}
	if i := strings.Index(r.Placement, " ("); i > 0 {
		return r.Placement[:i]
	}
	return r.Placement
}

// A Variant is how the client treats a server's text when it runs
// another way, as measured in runs made that way. Its values replace the
// profile's; what it does not hold (tool descriptions when nil, handshake) is the
// profile's.
type Variant struct {
	// When is the way, as a user writes it: a flag, NAME=VALUE, or
	// "model NAME".
	When  string            `json:"when"`
	Flags []string          `json:"flags,omitempty"`
	Env   map[string]string `json:"env,omitempty"`
	// Model is the model the variant's requests named.
	Model string `json:"model,omitempty"`
	// Arm is the client's arm the variant's runs were in (client.Arm),
	// when not its default; its Handshake then replaces the profile's.
	Arm string `json:"arm,omitempty"`
	// ByModel says the arm sets nothing but the model: the variant is the
	// model's, and its way names the model alone.
	ByModel      bool       `json:"by_model,omitempty"`
	Handshake    *Handshake `json:"handshake,omitempty"`
	Runs         int        `json:"runs"`
	Instructions Limit      `json:"instructions"`
	Render       Render     `json:"render"`
	Startup      Startup    `json:"startup"`
	// ToolDescriptions, when set, is what the variant's runs showed of
	// tool descriptions (not measured, when they recorded none); when
	// nil, the profile's applies.
	ToolDescriptions *Limit `json:"tool_descriptions,omitempty"`
	// Surface, when set, is what the surface rows run in the variant's
	// arm showed; when nil, the surface of this way is not measured.
	Surface *Surface `json:"surface,omitempty"`
	// Failures are the variant's own (Profile.Failures): a failure the
	// runs made this way did not measure is not measured for it, so the
	// profile's do not apply.
	Failures   []Failure `json:"failures,omitempty"`
	Unmeasured []string  `json:"unmeasured,omitempty"`
}

// Expand returns each profile followed by one profile per variant, its
// values in place of the profile's and its When in Under, so that check
// shows every way a client was measured.
func Expand(ps []Profile) []Profile {
	var out []Profile
	for _, p := range ps {
		base := p
		if p.Arm != "" && slices.ContainsFunc(p.Variants, func(v Variant) bool { return v.Arm != "" && !v.ByModel }) {
			base.Way = p.Arm
		}
		// The surface, and a budget whose runs called tools, holds for
		// the model its runs named (Codex CLI 0.171.0 defines MCP tools
		// only for local-model): the view of that model, not the
		// default's, which says it is not measured.
		elsewhere := p.Surface != nil && p.Surface.Model != "" && p.Surface.Model != p.Model
		if elsewhere {
			base.Surface, base.SurfaceWith = nil, p.Surface.Model
			base.Unmeasured = append(slices.Clip(base.Unmeasured), SurfaceElsewhere(p.Model, p.Surface.Model))
		}
		base.Budgets = budgetsOf(p.Budgets, "", p.Model)
		out = append(out, base)
		for _, v := range p.Variants {
			q := p
			// A budget holds for the way it was measured (Budget.Way):
			// another arm or setting may wait otherwise (opencode's
			// timeout-1s). The HTTP view was measured in the client's
			// default way, the surface in it or with its model alone, the
			// approvals with the default model.
			q.Variants, q.HTTP, q.Surface, q.Approvals, q.Protocol = nil, nil, nil, nil, nil
			q.Under, q.Way = v.When, v.way(p.Model)
			q.Budgets = budgetsOf(p.Budgets, q.Way, p.Model)
			if elsewhere && q.Way == Way("", p.Surface.Model, p.Model, nil, nil) {
				q.Surface = p.Surface
			}
			if v.Surface != nil {
				q.Surface = v.Surface
			}
			if v.Model != "" {
				q.Model = v.Model
			}
			if v.Arm != "" && !v.ByModel {
				q.Arm = v.Arm // a model's arm runs the default arm's switches
			}
			if v.Handshake != nil {
				q.Handshake = *v.Handshake
			}
			q.Instructions, q.Render, q.Startup = v.Instructions, v.Render, v.Startup
			if v.ToolDescriptions != nil {
				q.ToolDescriptions = *v.ToolDescriptions
			}
			q.Failures = v.Failures
			q.Unmeasured = append(slices.Clip(slices.DeleteFunc(slices.Clone(p.Unmeasured), func(u string) bool {
				return unmeasuredInVariant(u, v.ToolDescriptions != nil)
			})), v.Unmeasured...)
			for _, m := range FailureMethods {
				if p.Failure(m) != nil && q.Failure(m) == nil {
					q.Unmeasured = append(q.Unmeasured, FailureUnmeasured(m))
				}
			}
			out = append(out, q)
		}
	}
	return out
}

// unmeasuredInVariant reports whether a profile's unmeasured item is
// about a value a variant replaces (so the variant's own list says);
// tools is set when the variant has its own tool descriptions.
func unmeasuredInVariant(u string, tools bool) bool {
	if tools && strings.Contains(u, "tool description") {
		return true
	}
	for _, w := range []string{"cap on instructions", "what the cap counts", "truncation marker", "cap setting", "placement", "head and tail", "slow server", "one cap"} {
		if strings.Contains(u, w) {
			return true
		}
	}
	return false
}

// FailureUnmeasured is the Unmeasured item of a failure of method a
// profile did not measure.
func FailureUnmeasured(method string) string {
	return "what it does when a server's " + method + " fails"
}

// Handshake is which era a client ends up in.
type Handshake struct {
	// ProbeStdio and ProbeHTTP say whether the client sends server/discover
	// first on that transport; a DiscoverResult then makes it modern and it
	// never sends initialize.
	ProbeStdio bool   `json:"probe_stdio"`
	ProbeHTTP  bool   `json:"probe_http"`
	Note       string `json:"note,omitempty"`
}

// Startup is how long a client waits for a server to connect.
type Startup struct {
	TimeoutMs int `json:"timeout_ms,omitempty"` // 0 when unknown
	// Waited says whether the first model request waited for a server
	// whose reply was held Held (as "8s") with nothing else set; nil when
	// not measured.
	Waited  *bool  `json:"waited,omitempty"`
	Held    string `json:"held,omitempty"`
	Setting string `json:"setting,omitempty"`
	Note    string `json:"note,omitempty"`
}

// A Budget is one of a client's budgets measured as a number by
// bisection over runs (instrlab budget, internal/budget): it lies between
// Within, the largest value met within it, and Past, the smallest met past
// it. Below is set when the client was past it at the range's low end,
// Above when within at its high end; then one side alone is known.
// The names of the budgets instrlab budget measures (Budget.Name): how
// long a client waits for a server to start, how long it defers its first
// request for one, the longest tool name it keeps, the longest tool result,
// how long it waits for a tool's result.
const (
	BudgetWait   = "wait"
	BudgetDefer  = "defer"
	BudgetName   = "name"
	BudgetResult = "result"
	BudgetCall   = "call"
)

type Budget struct {
	Name   string  `json:"name"` // "wait"
	Unit   string  `json:"unit"` // "s"
	Within float64 `json:"within"`
	Past   float64 `json:"past,omitempty"`
	Below  bool    `json:"below,omitempty"`
	Above  bool    `json:"above,omitempty"`
	// PastBudget is what the client does past it; Late whether a server
	// ready after the first request reaches a later one.
	PastBudget string `json:"past_budget,omitempty"`
	Late       string `json:"late,omitempty"`
	// Settings are the environment it was measured under, beyond the
	// client's defaults.
	Settings map[string]string `json:"settings,omitempty"`
	// Way is the way its runs ran the client, from their row (Way: "model
	// local-model"), "" for the client's default way: it holds for the
	// view of that way alone (Expand).
	Way string `json:"way,omitempty"`
	// Model is the model the runs' requests named when it is not the
	// profile's (a client that calls tools with another model: Codex
	// 0.171.0's local-model); "" for the profile's.
	Model string `json:"model,omitempty"`
	// Names, for the tool-name budget, is what its runs at the edge
	// showed of the names: the client's prefix before the tool's name
	// for the server of the runs (Server), and the lengths of the
	// longest name kept whole (Within) and of the one past it (Past),
	// each with its whole length (the prefix included) and, past it,
	// what became of it; nil when no run showed the client's name for
	// the tool (a client that names its tools only in a text). Within
	// and Past count the server's tool name alone, without the prefix.
	Names *Names `json:"names,omitempty"`
	// Second is a second limit measured past this one, where the client
	// gives something else again; nil when none was measured.
	Second *SecondLimit `json:"second,omitempty"`
	// Counts is what the client counts the budget in, as runs of text
	// outside the Basic Multilingual Plane at its edge told (a
	// unit.Unit: codepoint, utf16, byte), CountsNote what they showed;
	// Counts is "" when they did not tell it, or were not run.
	Counts     string `json:"counts,omitempty"`
	CountsNote string `json:"counts_note,omitempty"`
	Runs       int    `json:"runs"`
	// MaxLoad is the highest one-minute load average a run saw.
	MaxLoad float64 `json:"max_load,omitempty"`
	Date    string  `json:"date"`
	Command string  `json:"command,omitempty"`
}

// A SecondLimit is a limit past a budget's (in the budget's unit, on the
// budget's kind of text): up to Within the client gives the budget's
// PastBudget, from Past on PastBudget here instead (Claude Code 2.1.332's
// result: a preview of a saved file up to 101,000 characters of ASCII
// text, an error and the file's path from 101,100). Counts says what the
// client counts it in, when that is not the budget's unit (tokens, by the
// client's own estimate: another text meets it at another length).
type SecondLimit struct {
	Within     float64 `json:"within"`
	Past       float64 `json:"past"`
	PastBudget string  `json:"past_budget"`
	Counts     string  `json:"counts,omitempty"`
	Runs       int     `json:"runs"`
	Date       string  `json:"date"`
	Command    string  `json:"command"`
}

// Evidence is one source a profile's values come from.
type Evidence struct {
	Kind string `json:"kind"` // "article", "docs" or "instrlab-run"
	Ref  string `json:"ref"`  // a path in the repository, a URL, or a run id
	Date string `json:"date,omitempty"`
	Runs int    `json:"runs,omitempty"`
	Says string `json:"says"` // what it established, in plain words
}

// way is the variant's short name beside its client's other ways: its
// arm, its model when not the profile's, its flags and settings, as in
// "lazy-stdio + model gpt-5.5"; When when it sets none of these.
func (v Variant) way(model string) string {
	arm := v.Arm
	if v.ByModel {
		arm = ""
	}
	if w := Way(arm, v.Model, model, v.Flags, v.Env); w != "" {
		return w
	}
	return v.When
}

// Way names a way of running a client beyond its defaults, in a few
// words: its arm, a model other than its default (defaultModel, "" when
// any named model is another), its flags and environment ("model
// local-model", "lazy-stdio + model gpt-5.5"); "" for none. A variant
// and a budget measured the same way have the same Way.
func Way(arm, model, defaultModel string, flags []string, env map[string]string) string {
	var parts []string
	if arm != "" {
		parts = append(parts, arm)
	}
	if model != "" && model != defaultModel {
		parts = append(parts, "model "+model)
	}
	parts = append(parts, flags...)
	for _, k := range slices.Sorted(maps.Keys(env)) {
		parts = append(parts, k+"="+env[k])
	}
	return strings.Join(parts, " + ")
}

// Named is the display name with the version (and the version asked
// for, when it is another): the Title without the way.
func (p Profile) Named() string {
	if p.For != "" {
		return p.Name + " " + p.For + " (as " + p.Version + ")"
	}
	return p.Name + " " + p.Version
}

// ID is the profile's short name, client@version.
func (p Profile) ID() string { return p.Client + "@" + p.Version }

// Title is the display name with the version, the version asked for
// when it is another (For), and the variant (Under).
func (p Profile) Title() string {
	t := p.Named()
	switch {
	case strings.HasPrefix(p.Under, "in arm "):
		t += " " + p.Under
	case p.Under != "":
		t += " with " + p.Under
	case p.Arm != "" && slices.ContainsFunc(p.Variants, func(v Variant) bool { return v.Arm != "" && !v.ByModel }):
		t += " in arm " + p.Arm
	}
	return t
}

// fileKeys are how a profile file names its client: Client and Title
// since 2026-12-06; Client (the name alone), Name and Version before.
type fileKeys struct {
	Client  string `json:"client"`
	Title   string `json:"title,omitempty"`
	Name    string `json:"name,omitempty"`
	Version string `json:"version,omitempty"`
}

// MarshalJSON writes p with "client" as ID() and "title" as the display
// name with the version, before its other members.
func (p Profile) MarshalJSON() ([]byte, error) {
	type plain Profile
	v := struct {
		fileKeys
		plain
	}{fileKeys{Client: p.ID(), Title: p.Name + " " + p.Version}, plain(p)}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // keep <system-reminder> readable
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// UnmarshalJSON reads a profile as either version writes it, refusing
// unknown members as Parse does.
func (p *Profile) UnmarshalJSON(b []byte) error {
	type plain Profile
	var v struct {
		fileKeys
		*plain
	}
	v.plain = (*plain)(p)
	if err := decodeStrict(b, &v); err != nil {
		return err
	}
	k := v.fileKeys
	if k.Title == "" { // written before 2026-12-06
		p.Client, p.Name, p.Version = k.Client, k.Name, k.Version
		return nil
	}
	name, version, ok := strings.Cut(k.Client, "@")
	switch {
	case !ok || name == "" || version == "":
		return fmt.Errorf("profile client %q beside a title: want name@version", k.Client)
	case k.Name != "" || k.Version != "":
		return fmt.Errorf("profile %s: name and version are the keys before title: give client and title alone", k.Client)
	case !strings.HasSuffix(k.Title, " "+version) || len(k.Title) == len(version)+1:
		return fmt.Errorf("profile %s: title %q: want the client's name, then its version", k.Client, k.Title)
	}
	p.Client, p.Version, p.Name = name, version, strings.TrimSuffix(k.Title, " "+version)
	return nil
}

// decodeStrict decodes b into v, refusing unknown members: a custom
// UnmarshalJSON does not inherit its decoder's DisallowUnknownFields.
func decodeStrict(b []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	return dec.Decode(v)
}

// Parse decodes and validates one profile; unknown fields are errors, so a
// typo in a profile cannot silently drop a value.
func Parse(data []byte) (Profile, error) {
	var p Profile
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&p); err != nil {
		return Profile{}, fmt.Errorf("decoding profile: %w", err)
	}
	if dec.More() {
		return Profile{}, errors.New("decoding profile: data after the profile object")
	}
	if err := p.Validate(); err != nil {
		return Profile{}, err
	}
	return p, nil
}

// Validate reports the first thing that makes p unusable.
func (p Profile) Validate() error {
	switch {
	case p.Client == "" || p.Version == "" || p.Name == "":
		return errors.New("profile needs client, name and version")
	case strings.ContainsAny(p.Client+p.Version, "@/ "):
		return fmt.Errorf("profile %s: client and version must not contain '@', '/' or spaces", p.ID())
	case len(p.Evidence) == 0:
		return fmt.Errorf("profile %s: no evidence", p.ID())
	case !strings.Contains(p.Render.Server, "{text}"):
		return fmt.Errorf("profile %s: render.server must contain {text}", p.ID())
	}
	for i, v := range p.Variants {
		switch {
		case v.When == "":
			return fmt.Errorf("profile %s: variants[%d] needs when", p.ID(), i)
		case v.Arm != "" && v.Runs == 0:
			return fmt.Errorf("profile %s: variant %q states what arm %s does with no run in that arm as evidence", p.ID(), v.When, v.Arm)
		case len(v.Flags) == 0 && len(v.Env) == 0 && v.Model == "" && v.Arm == "":
			return fmt.Errorf("profile %s: variant %q names no flag, setting or model", p.ID(), v.When)
		case !strings.Contains(v.Render.Server, "{text}"):
			return fmt.Errorf("profile %s: variant %q: render.server must contain {text}", p.ID(), v.When)
		}
	}
	limits := []struct {
		name string
		l    Limit
	}{{"instructions", p.Instructions}, {"tool_descriptions", p.ToolDescriptions}}
	for _, v := range p.Variants {
		limits = append(limits, struct {
			name string
			l    Limit
		}{"variant " + strconv.Quote(v.When) + " instructions", v.Instructions})
		if v.ToolDescriptions != nil {
			limits = append(limits, struct {
				name string
				l    Limit
			}{"variant " + strconv.Quote(v.When) + " tool_descriptions", *v.ToolDescriptions})
		}
	}
	for _, l := range limits {
		if l.l.Cap < 0 || l.l.AtLeast < 0 {
			return fmt.Errorf("profile %s: %s.cap or at_least is negative", p.ID(), l.name)
		}
		if l.l.Cap > 0 && l.l.AtLeast > 0 {
			return fmt.Errorf("profile %s: %s has both a cap and at_least", p.ID(), l.name)
		}
		if l.l.Whole != 0 && (l.l.Cap <= 0 || l.l.Whole <= l.l.Cap) {
			return fmt.Errorf("profile %s: %s.whole %d is not above its cap %d", p.ID(), l.name, l.l.Whole, l.l.Cap)
		}
		if _, err := unit.Parse(l.l.Unit); l.l.Cap > 0 && err != nil {
			return fmt.Errorf("profile %s: %s.unit: %w", p.ID(), l.name, err)
		}
		for _, m := range l.l.Meta {
			if m.Key == "" || m.Runs == 0 || len(m.Value) == 0 {
				return fmt.Errorf("profile %s: %s.meta needs key, value and runs", p.ID(), l.name)
			}
		}
		if l.l.Lines != "" && l.l.Lines != LinesAll && l.l.Lines != LinesFirst {
			return fmt.Errorf("profile %s: %s.lines %q: want %q, %q or none (not measured)", p.ID(), l.name, l.l.Lines, LinesAll, LinesFirst)
		}
		if !slices.Contains([]string{"", TrimNone, TrimStart, TrimEnd, TrimBoth}, l.l.Trim) {
			return fmt.Errorf("profile %s: %s.trim %q: want %q, %q, %q, %q or none (not measured)", p.ID(), l.name, l.l.Trim, TrimNone, TrimStart, TrimEnd, TrimBoth)
		}
		if l.l.LineBreak && l.l.Lines != LinesFirst {
			return fmt.Errorf("profile %s: %s.line_break is set without lines %q", p.ID(), l.name, LinesFirst)
		}
		if s := l.l.Setting; s != nil && s.Syntax != SyntaxPlainDigits {
			return fmt.Errorf("profile %s: %s.setting.syntax %q is not supported (want %q)", p.ID(), l.name, s.Syntax, SyntaxPlainDigits)
		}
	}
	for i, b := range p.Budgets {
		switch {
		case b.Name == "" || b.Unit == "" || b.Date == "":
			return fmt.Errorf("profile %s: budgets[%d] needs name, unit and date", p.ID(), i)
		case b.Runs < 1:
			return fmt.Errorf("profile %s: budget %s was measured by no run", p.ID(), b.Name)
		case b.Below && b.Above:
			return fmt.Errorf("profile %s: budget %s is both below and above its range", p.ID(), b.Name)
		case !b.Below && !b.Above && b.Past < b.Within:
			return fmt.Errorf("profile %s: budget %s: past %v is less than within %v", p.ID(), b.Name, b.Past, b.Within)
		}
		if err := b.Names.validate(); err != nil {
			return fmt.Errorf("profile %s: budget %s: %w", p.ID(), b.Name, err)
		}
		if s := b.Second; s != nil && (s.Within < b.Past || s.Past <= s.Within || s.PastBudget == "" || s.Runs < 1 || s.Date == "" || s.Command == "") {
			return fmt.Errorf("profile %s: budget %s: a second limit needs within at or past %v, past above within, what the client does past it, runs, date and command", p.ID(), b.Name, b.Past)
		}
	}
	for i, f := range p.Failures {
		switch {
		case !slices.Contains(FailureMethods, f.Method):
			return fmt.Errorf("profile %s: failures[%d]: method %q is not one of %s", p.ID(), i, f.Method, strings.Join(FailureMethods, ", "))
		case f.Runs == 0 || f.Sent > f.Runs:
			return fmt.Errorf("profile %s: failure of %s states what the client does with %d runs, %d of which sent it", p.ID(), f.Method, f.Runs, f.Sent)
		case slices.ContainsFunc(p.Failures[:i], func(g Failure) bool { return g.Method == f.Method }):
			return fmt.Errorf("profile %s: failure of %s listed twice", p.ID(), f.Method)
		}
	}
	if err := p.Surface.validate(); err != nil {
		return fmt.Errorf("profile %s: %w", p.ID(), err)
	}
	for _, v := range p.Variants {
		if err := v.Surface.validate(); err != nil {
			return fmt.Errorf("profile %s: variant %q: %w", p.ID(), v.When, err)
		}
	}
	for i, e := range p.Evidence {
		if e.Kind == "" || e.Ref == "" || e.Says == "" {
			return fmt.Errorf("profile %s: evidence[%d] needs kind, ref and says", p.ID(), i)
		}
	}
	return p.validateHTTP()
}

// Encode validates p and encodes it the way the files under data/ are
// written, so that "instrlab run" can write a profile check reads
// unchanged. The file name is p.ID() + ".json".
func Encode(p Profile) ([]byte, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // keep <system-reminder> readable
	enc.SetIndent("", "  ")
	if err := enc.Encode(p); err != nil {
		return nil, fmt.Errorf("encoding profile %s: %w", p.ID(), err)
	}
	return b.Bytes(), nil
}

// NotMeasured reports whether the profile lists field (a JSON field name
// such as "probe_http" or "timeout_ms") under Unmeasured: its value is a
// placeholder, not evidence.
func (p Profile) NotMeasured(field string) bool {
	for _, u := range p.Unmeasured {
		if strings.Contains(u, field) {
			return true
		}
	}
	return false
}

// budgetsOf are the budgets of bs measured in way ("" the default).
func budgetsOf(bs []Budget, way, defaultModel string) []Budget {
	var out []Budget
	for _, b := range bs {
		m := b.Model
		if m == "" {
			m = defaultModel
		}
		switch {
		case b.Way == way && (b.Way != "" || m == defaultModel):
			out = append(out, b)
		case b.Way == "" && b.Model != "" && way == Way("", b.Model, defaultModel, nil, nil):
			out = append(out, b) // measured the default way but for the runs' model
		}
	}
	return out
}

// SurfaceElsewhere is the Unmeasured item of a view whose model the
// surface was not measured under.
func SurfaceElsewhere(model, measured string) string {
	return fmt.Sprintf("what becomes of tool results, input schemas and tool names with model %s (measured with model %s only: see its view)", model, measured)
}
