package budget

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/instrlab/instrlab/internal/labvocab"
	"github.com/instrlab/instrlab/internal/matrix/analyze"
	"github.com/instrlab/instrlab/internal/profiles"
)

// TestMeasurementText: each budget as a user reads it. A search whose
// upper run failed (Continue CLI 1.5.47 exits 1 with its server held 60
// s) is "not resolved" with the reason and what the runs before it
// showed, never the inverted range "33 ms–0 ms" it once printed; so is
// one that failed half-way, and one that failed at once is "not
// measured".
func TestMeasurementText(t *testing.T) {
	const timedOut = "MCP server(s) failed to load: lab: MCP error -32001: Request timed out"
	for _, tt := range []struct {
		name string
		m    Measurement
		want string
	}{
		{"wait", Measurement{Budget: Wait, Within: 1.9, Past: 2.1, Runs: 8}, "1.9 s–2.1 s"},
		{"wait below", Measurement{Budget: Wait, Below: true, Past: 0.03, Runs: 1}, "under 30 ms"},
		{"wait above", Measurement{Budget: Wait, Above: true, Within: 60.2, Runs: 2}, "at least 60.2 s"},
		{"wait unresolved", Measurement{Budget: Wait, Within: 1.5, Past: 3, Runs: 12, Unresolved: true}, "1.5 s–3.0 s (not resolved to its resolution: the runs ran out)"},
		{"upper run failed", Measurement{Budget: Wait, Within: 0.033, Runs: 2, Failed: timedOut,
			Steps: []Outcome{{Value: 0, At: 0.033, Within: true}, {Value: 60, At: 60, Failed: timedOut}}},
			"not resolved: the run at 60.0 s failed (" + timedOut + "); within it at 33 ms by the runs before it"},
		{"failed half-way", Measurement{Budget: Wait, Within: 1, Past: 4, Runs: 3, Failed: "timed out after 3m0s",
			Steps: []Outcome{{Value: 0, At: 1, Within: true}, {Value: 60, At: 4}, {Value: 2, Failed: "timed out after 3m0s"}}},
			"not resolved: the run at 2.0 s failed (timed out after 3m0s); between 1.0 s and 4.0 s by the runs before it"},
		{"failed at once", Measurement{Budget: Wait, Runs: 1, Failed: "exit status 1", Steps: []Outcome{{Value: 0, Failed: "exit status 1"}}},
			"not measured: exit status 1"},
		{"defer", Measurement{Budget: Defer, Within: 40, Past: 41, Runs: 11, Note: " (descriptions 11,000 characters at 40 tools)"},
			"defers from 41 tools (not at 40) (descriptions 11,000 characters at 40 tools)"},
		{"defer always", Measurement{Budget: Defer, Below: true, Past: 3, Runs: 1}, "defers at 3 tools already, the fewest the lab serves"},
		{"defer never", Measurement{Budget: Defer, Above: true, Within: 512, Runs: 2}, "does not defer up to 512 tools"},
		{"defer failed", Measurement{Budget: Defer, Within: 3, Runs: 2, Failed: "exit status 1",
			Steps: []Outcome{{Value: 3, Within: true}, {Value: 512, Failed: "exit status 1"}}},
			"not resolved: the run at 512 tools failed (exit status 1); within it at 3 tools by the runs before it"},
		{"name", Measurement{Budget: NameLength, Within: 54, Past: 55, Runs: 10, Note: ` (64 characters with the client's prefix "mcp__lab__")`},
			`accepts a tool name of up to 54 characters (64 characters with the client's prefix "mcp__lab__")`},
		{"name above", Measurement{Budget: NameLength, Above: true, Within: 256, Runs: 2}, "accepts a tool name of 256 characters, the longest tried"},
		// A search that splits first: past at 128, then the low end
		// cannot be read; the past at 128 explains nothing without it.
		{"name unread at the low end", Measurement{Budget: NameLength, Past: 128, Runs: 2, Failed: "cannot tell: no name",
			Steps: []Outcome{{Value: 128}, {Value: 1, Failed: "cannot tell: no name"}}}, "not measured: cannot tell: no name"},
		{"name failed above the split", Measurement{Budget: NameLength, Past: 128, Runs: 2, Failed: "exit status 1",
			Steps: []Outcome{{Value: 128}, {Value: 64, Failed: "exit status 1"}}},
			"not resolved: the run at 64 characters failed (exit status 1); past it at 128 characters by the runs before it"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.m.Text()
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Text() mismatch (-want +got):\n%s", diff)
			}
			if strings.Contains(got, "–0 ms") {
				t.Errorf("Text() = %q: an inverted range", got)
			}
		})
	}
}

// TestNamePast: what a client does with a tool name one character past
// its limit, read from the first request: a cut at the end (Claude
// Code's prefix, cut to 64), a cut in the middle around "..." (Gemini CLI
// 0.61.0 sends mcp_lab_ + 55 characters as 63), a rename, the tool
// dropped, the server dropped.
func TestNamePast(t *testing.T) {
	long := labvocab.LongToolName(56)
	own := []analyze.ToolFacts{{Name: "lookup_part", Via: analyze.ViaDefinition}, {Name: "list_bins", Via: analyze.ViaDefinition}, {Name: long}}
	gemini := "mcp_lab_" + long[:27] + "..." + long[len(long)-25:]
	for _, tt := range []struct {
		name  string
		tools []string
		facts []analyze.ToolFacts
		want  string
	}{
		{"cut", []string{"mcp__lab__" + long[:54]}, own, "cuts it to 64 characters with its prefix (54 characters of the name's 56 kept)"},
		{"middle", []string{gemini}, own, `cuts it to 63 characters with its prefix, keeping its first 27 and last 25 characters around "..."`},
		{"renamed", []string{"mcp__lab__lnamezzz"}, own, "renames it: mcp__lab__lnamezzz, 18 characters with its prefix"},
		{"hashed", []string{"lab__" + long[:50] + "_01e3c110"}, own, `cuts it to 64 characters with its prefix, the name's first 50 characters, "_" and a hash of 8 (lab__` + long[:50] + `_01e3c110)`},
		{"tool dropped", []string{"mcp__lab__lookup_part"}, own, "drops the tool (the server's 2 other tools reach the model)"},
		{"deferred", []string{"ToolSearch"}, []analyze.ToolFacts{{Name: "lookup_part", Via: analyze.ViaNameOnly}, {Name: long}},
			"does not name it whole (the server's 1 other tools are named in a text, where a cut or renamed name is not read: it drops or renames it)"},
		{"server dropped", []string{"Read"}, []analyze.ToolFacts{{Name: "lookup_part"}, {Name: long}}, "drops the server (none of its tools reaches the model)"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := analyze.Result{First: &analyze.RequestFacts{Tools: tt.tools}, Tools: tt.facts}
			if got := namePast(Found{Within: 55, Past: 56}, []analyze.Result{r}); got != tt.want {
				t.Errorf("namePast = %q, want %q", got, tt.want)
			}
		})
	}
}

// TestNameRecord: what a profile keeps of the runs at the name limit's
// edge: the client's prefix with {server} for the runs' server, and the
// whole names kept and past it (cut, with a hash or not; the tool not
// offered); the prefix read from the cut name when no run defined the
// longest kept; a client with no prefix; and nothing from a client that
// names its tools only in a text, where no prefix is read.
func TestNameRecord(t *testing.T) {
	l59, l60 := labvocab.LongToolName(59), labvocab.LongToolName(60)
	others := []analyze.ToolFacts{{Name: "lookup_part", Via: analyze.ViaDefinition}, {Name: "list_bins", Via: analyze.ViaDefinition}}
	run := func(first []string, long string, via string) analyze.Result {
		return analyze.Result{First: &analyze.RequestFacts{Tools: first}, Tools: append(slices.Clone(others), analyze.ToolFacts{Name: long, Via: via})}
	}
	hashed := "lab__" + l60[:50] + "_01e3c110"
	kept := run([]string{"lab__lookup_part", "lab__" + l59}, l59, analyze.ViaDefinition)
	cut := run([]string{"lab__lookup_part", hashed}, l60, "")
	for _, tt := range []struct {
		name     string
		f        Found
		ok, past []analyze.Result
		want     *profiles.Names
	}{
		{"kept and cut with a hash", Found{Within: 59, Past: 60}, []analyze.Result{kept, cut}, []analyze.Result{cut},
			&profiles.Names{Prefix: "{server}__", Server: "lab", Lengths: []profiles.NameLength{
				{Tool: l59, Chars: 59, Full: 64, Fate: profiles.FateKept, Got: 64, Name: "lab__" + l59, Runs: 1},
				{Tool: l60, Chars: 60, Full: 65, Fate: profiles.FateCut, Got: 64, Hash: true, Name: hashed, Runs: 1}}}},
		{"the prefix from the cut", Found{Within: 59, Past: 60}, []analyze.Result{cut}, []analyze.Result{cut},
			&profiles.Names{Prefix: "{server}__", Server: "lab", Lengths: []profiles.NameLength{
				{Tool: l60, Chars: 60, Full: 65, Fate: profiles.FateCut, Got: 64, Hash: true, Name: hashed, Runs: 1}}}},
		{"the tool not offered", Found{Within: 59, Past: 60}, []analyze.Result{kept}, []analyze.Result{run([]string{"lab__lookup_part", "lab__list_bins"}, l60, "")},
			&profiles.Names{Prefix: "{server}__", Server: "lab", Lengths: []profiles.NameLength{
				{Tool: l59, Chars: 59, Full: 64, Fate: profiles.FateKept, Got: 64, Name: "lab__" + l59, Runs: 1},
				{Tool: l60, Chars: 60, Full: 65, Fate: profiles.FateDropped, Runs: 1}}}},
		{"no prefix, above the range", Found{Within: 256, Above: true}, []analyze.Result{run([]string{"lookup_part", labvocab.LongToolName(256)}, labvocab.LongToolName(256), analyze.ViaDefinition)}, nil,
			&profiles.Names{Prefix: "", Server: "lab", Lengths: []profiles.NameLength{
				{Tool: labvocab.LongToolName(256), Chars: 256, Full: 256, Fate: profiles.FateKept, Got: 256, Name: labvocab.LongToolName(256), Runs: 1}}}},
		{"named in a text", Found{Within: 59, Past: 60},
			[]analyze.Result{{First: &analyze.RequestFacts{Tools: []string{"ToolSearch"}}, Tools: []analyze.ToolFacts{{Name: "lookup_part", Via: analyze.ViaNameOnly}, {Name: l59, Via: analyze.ViaNameOnly}}}},
			[]analyze.Result{{First: &analyze.RequestFacts{Tools: []string{"ToolSearch"}}, Tools: []analyze.ToolFacts{{Name: "lookup_part", Via: analyze.ViaNameOnly}, {Name: l60}}}},
			nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, nameRecord(tt.f, tt.ok, tt.past, "lab")); diff != "" {
				t.Errorf("nameRecord mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestCountOutcomeCannotTell: a count is read from the first request, so
// a run whose request cannot show it tells nothing: at the range's low
// end, a first request that shows nothing of the server (the deferral:
// no text, no tool, no status) or none of its tools (the name), as
// Droid's wait; anywhere, a server ready only after a first request that
// shows none of it (a race with the client's wait). A client that drops
// the server for a long name, past the low end, is read as past.
func TestCountOutcomeCannotTell(t *testing.T) {
	ms := func(v float64) *float64 { return &v }
	hidden := []analyze.ToolFacts{{Name: "lookup_part"}, {Name: "list_bins"}, {Name: "lab_ping"}, {Name: labvocab.LongToolName(1)}}
	for _, tt := range []struct {
		name    string
		outcome func(float64, analyze.Result) Outcome
		v       float64
		r       analyze.Result
		failed  string
		within  bool
	}{
		{"defer, nothing shown at 3", deferOutcome, 3, analyze.Result{Status: "ok", Tools: hidden[:3], Timing: analyze.Timing{LeadMS: ms(300)}}, "cannot tell: with 3 tools", false},
		{"defer, connected, none shown at 3", deferOutcome, 3, analyze.Result{Status: "ok", Tools: hidden[:3], Timing: analyze.Timing{HadServer: true, LeadMS: ms(300)}}, "", false},
		{"defer, ready after the request", deferOutcome, 257, analyze.Result{Status: "ok", Tools: hidden[:3], Timing: analyze.Timing{LeadMS: ms(-800)}}, "a race with the client's wait", false},
		{"name, no tool shown at 1", nameOutcome, 1, analyze.Result{Status: "ok", Tools: hidden, Timing: analyze.Timing{HadServer: true, LeadMS: ms(300)}}, "cannot tell: with a 1-character name", false},
		{"name, only the namespace at 1", nameOutcome, 1, analyze.Result{Status: "ok", Timing: analyze.Timing{HadServer: true, LeadMS: ms(300)},
			Tools: []analyze.ToolFacts{{Name: "lookup_part", Via: analyze.ViaNamespace}, {Name: labvocab.LongToolName(1), Via: analyze.ViaNamespace}}}, "at most its namespace", false},
		{"name, server dropped at 128", nameOutcome, 128, analyze.Result{Status: "ok", Tools: append(hidden[:3:3], analyze.ToolFacts{Name: labvocab.LongToolName(128)}), Timing: analyze.Timing{LeadMS: ms(300)}}, "", false},
		{"name, a server that sent another name at 20", nameOutcome, 20, analyze.Result{Status: "ok", Timing: analyze.Timing{HadServer: true, LeadMS: ms(300)},
			Tools: []analyze.ToolFacts{{Name: "lookup_part", Via: analyze.ViaDefinition}, {Name: labvocab.LongToolName(8), Via: analyze.ViaDefinition}}}, "has no tool named with the 20 characters asked", false},
		{"name, whole at 1", nameOutcome, 1, analyze.Result{Status: "ok", Timing: analyze.Timing{HadServer: true, LeadMS: ms(300)},
			Tools: []analyze.ToolFacts{{Name: "lookup_part", Via: analyze.ViaDefinition}, {Name: labvocab.LongToolName(1), Via: analyze.ViaDefinition, As: "mcp__lab__" + labvocab.LongToolName(1)}}}, "", true},
		{"name, its definition found by its description, the name cut", nameOutcome, 80, analyze.Result{Status: "ok", Timing: analyze.Timing{HadServer: true, LeadMS: ms(300)},
			Tools: []analyze.ToolFacts{{Name: "lookup_part", Via: analyze.ViaDefinition}, {Name: labvocab.LongToolName(80), Via: analyze.ViaDefinition, As: "mcp__lab__" + labvocab.LongToolName(80)[:54]}}}, "", false},
		// Cline CLI 3.0.65, the sweep of 2026-12-07: lab__, the name's first
		// 50 characters, _ and a hash of 8 (read as within before).
		{"name, cut before a hash", nameOutcome, 256, analyze.Result{Status: "ok", Timing: analyze.Timing{HadServer: true, LeadMS: ms(300)},
			Tools: []analyze.ToolFacts{{Name: "lookup_part", Via: analyze.ViaDefinition}, {Name: labvocab.LongToolName(256), Via: analyze.ViaDefinition, As: "lab__" + labvocab.LongToolName(256)[:50] + "_e3ad1088"}}}, "", false},
		{"name, whole before a suffix", nameOutcome, 40, analyze.Result{Status: "ok", Timing: analyze.Timing{HadServer: true, LeadMS: ms(300)},
			Tools: []analyze.ToolFacts{{Name: "lookup_part", Via: analyze.ViaDefinition}, {Name: labvocab.LongToolName(40), Via: analyze.ViaDefinition, As: "mcp__lab__" + labvocab.LongToolName(40) + "_1wpy6f5"}}}, "", true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			o := tt.outcome(tt.v, tt.r)
			if tt.failed == "" && o.Failed != "" || !strings.Contains(o.Failed, tt.failed) {
				t.Errorf("failed %q, want %q", o.Failed, tt.failed)
			}
			if tt.failed == "" && o.Within != tt.within {
				t.Errorf("within %v, want %v", o.Within, tt.within)
			}
		})
	}
}
