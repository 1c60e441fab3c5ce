package derive

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/instrlab/instrlab/internal/matrix"
	"github.com/instrlab/instrlab/internal/matrix/analyze"
	"github.com/instrlab/instrlab/internal/profiles"
	"github.com/instrlab/instrlab/lab"
)

// failRun is a run of a row whose lab failed method: the client sent
// methods, ended with status, and the first request held kept characters
// of the initialize text and the tools named in tools.
func failRun(method, status string, methods []string, kept int, tools ...analyze.ToolFacts) run {
	r := run{Row: matrix.Row{Name: "fail", Args: lab.Args{Instr: "ascii:1000", Fail: method}}}
	r.Status = status
	r.Handshake.Methods = methods
	r.Tools = tools
	if status == "ok" {
		r.First = &analyze.RequestFacts{}
		if kept > 0 {
			r.First.Placements = []analyze.Placement{{Reply: lab.ReplyInitialize, Kept: kept}}
		}
	}
	return r
}

// TestDeriveFailures: what a client did when a method failed is read from
// the runs of rows that failed it, and nothing else: a client that drops
// the server (Codex), keeps its instructions and retries tools/list
// (Claude Code), falls back after a failed probe, ends its session
// (Continue), or never sends the method.
func TestDeriveFailures(t *testing.T) {
	listed := []string{"initialize", "notifications/initialized", "tools/list"}
	def := analyze.ToolFacts{Name: "lookup_part", Via: analyze.ViaDefinition, Found: true}
	tests := []struct {
		name string
		runs []run
		want []profiles.Failure
	}{
		{"drops", []run{failRun("tools/list", "ok", listed, 0)},
			[]profiles.Failure{{Method: "tools/list", Runs: 1, Sent: 1, Tries: 1}}},
		{"keeps and retries", []run{failRun("tools/list", "ok", append(listed, "tools/list", "tools/list", "tools/list"), 1000)},
			[]profiles.Failure{{Method: "tools/list", Runs: 1, Sent: 1, Tries: 4, Instructions: true, Reply: "initialize"}}},
		{"falls back", []run{failRun("server/discover", "ok", append([]string{"server/discover"}, listed...), 1000, def)},
			[]profiles.Failure{{Method: "server/discover", Runs: 1, Sent: 1, Tries: 1, Instructions: true, Tools: true, Reply: "initialize"}}},
		{"never probes", []run{failRun("server/discover", "ok", listed, 1000, def)},
			[]profiles.Failure{{Method: "server/discover", Runs: 1}}},
		{"ends the session", []run{failRun("initialize", "failed", []string{"initialize", "initialize"}, 0)},
			[]profiles.Failure{{Method: "initialize", Runs: 1, Sent: 1, Tries: 2, Exits: true}}},
		{"a run that changes more is not read", []run{func() run {
			r := failRun("tools/list", "ok", listed, 1000)
			r.Row.Env = map[string]string{"X": "1"}
			return r
		}()}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, un := deriveFailures(tt.runs)
			if diff := cmp.Diff(tt.want, got, cmpopts.IgnoreFields(profiles.Failure{}, "Note")); diff != "" {
				t.Errorf("failures mismatch (-want +got):\n%s", diff)
			}
			if len(got)+len(un) != len(profiles.FailureMethods) {
				t.Errorf("%d failures and %d unmeasured, want one of each per method", len(got), len(un))
			}
			for _, f := range got {
				if f.Note == "" {
					t.Errorf("failure of %s without a note", f.Method)
				}
			}
		})
	}
}

// TestDeriveToolMeta: the tool given a _meta key is read alone, from rows
// that set one key and nothing else; a row with two keys says nothing of
// either.
func TestDeriveToolMeta(t *testing.T) {
	meta := func(m string, via string) run {
		r := run{Row: matrix.Row{Name: "meta", Args: lab.Args{Instr: "none", ToolDesc: "ascii:1000", ToolMeta: m}}}
		r.Status = "ok"
		r.First = &analyze.RequestFacts{}
		r.Tools = []analyze.ToolFacts{{Name: "lookup_part", Sent: 1000, Via: via, Found: via == analyze.ViaDefinition, Kept: 1000, Full: via == analyze.ViaDefinition},
			{Name: "list_bins", Sent: 50, Via: analyze.ViaNameOnly}}
		return r
	}
	got := deriveToolMeta([]run{meta(`{"anthropic/alwaysLoad":true}`, analyze.ViaDefinition), meta(`{"a":1,"b":2}`, analyze.ViaDefinition)})
	if len(got) != 1 {
		t.Fatalf("%d meta limits, want 1: %+v", len(got), got)
	}
	want := profiles.MetaLimit{Key: "anthropic/alwaysLoad", Value: json.RawMessage("true"), Runs: 1,
		Limit: profiles.Limit{Unit: "codepoint", AtLeast: 1000, Via: analyze.ViaDefinition, UnitNote: "not measured: no description was cut"}}
	if diff := cmp.Diff(want, got[0], cmpopts.IgnoreFields(profiles.Limit{}, "Note")); diff != "" {
		t.Errorf("meta limit mismatch (-want +got):\n%s", diff)
	}
}

// TestFailuresFromExcerpts: what each pinned client did, in the committed
// evidence, when the lab failed tools/list, initialize or server/discover
// with error -32603 (rows fail-*): whether its instructions still reached
// the model, whether it ended its session, whether it sent the method.
func TestFailuresFromExcerpts(t *testing.T) {
	type fate struct {
		Sent, Exits, Instructions, Tools bool
	}
	keeps, drops, none := fate{Sent: true, Instructions: true}, fate{Sent: true}, fate{}
	tests := []struct {
		id                        string
		toolsList, init, discover fate
	}{
		{"claude-code@2.1.285", keeps, drops, none},
		{"claude-code@2.1.328", keeps, drops, fate{Sent: true, Instructions: true, Tools: true}},
		{"codex@0.169.0", drops, drops, none},
		{"gemini@0.61.0", keeps, drops, none},
		{"opencode@1.18.33", drops, drops, none},
		{"qwen@0.24.4", keeps, drops, none},
		{"copilot@1.0.102", drops, drops, fate{Sent: true, Tools: true}},
		{"cline@3.0.65", drops, drops, none},
		{"continue@1.5.47", drops, fate{Sent: true, Exits: true}, none},
		{"kilo@7.7.7", drops, drops, none},
		{"kilo@7.7.9", drops, drops, none},
		{"droid@0.225.2", drops, drops, none},
	}
	for _, tt := range tests {
		x, err := ReadExcerpt(t.Context(), "../data/evidence/"+tt.id+".json")
		if err != nil {
			t.Fatal(err)
		}
		ps, err := Profiles(x.Results, Options{Ref: "x", Evidence: x})
		if err != nil || len(ps) != 1 {
			t.Fatalf("%s: %d profiles, %v", tt.id, len(ps), err)
		}
		got := map[string]fate{}
		for _, f := range ps[0].Failures {
			got[f.Method] = fate{f.Sent > 0, f.Exits, f.Instructions, f.Tools}
		}
		want := map[string]fate{"tools/list": tt.toolsList, "initialize": tt.init, "server/discover": tt.discover}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s: failures mismatch (-want +got):\n%s", tt.id, diff)
		}
	}
}
