package derive

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/instrlab/instrlab/internal/labvocab"
	"github.com/instrlab/instrlab/internal/matrix"
	"github.com/instrlab/instrlab/internal/matrix/analyze"
	"github.com/instrlab/instrlab/internal/profiles"
)

// TestDeriveTools: the limit on tool descriptions is read from what the
// runs found of each one: a cut gives the cap (in the unit the cuts
// agree on) and the marker; descriptions never sent give no cap but say
// so, and a cap read from runs that set a variable and got them sent
// names it; runs with no tools measure nothing.
func TestDeriveTools(t *testing.T) {
	emoji := strings.Repeat("\U0001F600", 100)
	ascii := strings.Repeat("x", 1000)
	tool := func(name, desc string, kept int, via, suffix string) (analyze.NamedText, analyze.ToolFacts) {
		n := len([]rune(desc))
		f := analyze.ToolFacts{Name: name, Sent: n, Via: via, Found: via == analyze.ViaDefinition || via == analyze.ViaListing, Kept: kept, Suffix: suffix}
		f.Full = f.Found && kept == n
		return analyze.NamedText{Name: name, Description: desc}, f
	}
	mk := func(env map[string]string, ts ...func() (analyze.NamedText, analyze.ToolFacts)) run {
		r := run{Result: analyze.Result{First: &analyze.RequestFacts{}, ServerTexts: &analyze.ServerTexts{}}, Row: matrix.Row{Env: env}, isPlain: len(env) == 0}
		for _, f := range ts {
			nt, tf := f()
			r.ServerTexts.Tools = append(r.ServerTexts.Tools, nt)
			r.Tools = append(r.Tools, tf)
		}
		return r
	}
	def := func(name, desc string, kept int, via, suffix string) func() (analyze.NamedText, analyze.ToolFacts) {
		return func() (analyze.NamedText, analyze.ToolFacts) { return tool(name, desc, kept, via, suffix) }
	}
	short := def("ping", "Check the server.", 17, analyze.ViaListing, "")
	tests := []struct {
		name string
		runs []run
		want profiles.Limit
	}{
		{"cut in UTF-16 units", []run{
			mk(nil, short, def("lookup", ascii, 157, analyze.ViaListing, "...\"\n- ping")),
			mk(nil, short, def("lookup", emoji, 78, analyze.ViaListing, "...\"\n- ping")),
		}, profiles.Limit{Cap: 157, Unit: "utf16", Marker: "...", Measured: true, Via: analyze.ViaListing}},
		{"names only", []run{
			mk(nil, def("ping", "Check the server.", 0, analyze.ViaNameOnly, ""), def("lookup", ascii, 0, analyze.ViaNameOnly, "")),
		}, profiles.Limit{Unit: "codepoint", Measured: true, Via: analyze.ViaNameOnly, Unsent: true}},
		{"names only, sent with a setting", []run{
			mk(nil, def("lookup", ascii, 0, analyze.ViaNameOnly, "")),
			mk(map[string]string{"TOOL_SEARCH": "off"}, def("lookup", ascii, 200, analyze.ViaDefinition, "[cut]")),
		}, profiles.Limit{Cap: 200, Unit: "codepoint", Marker: "[cut]", Measured: true, Via: analyze.ViaNameOnly, Unsent: true}},
		{"whole", []run{mk(nil, short, def("lookup", ascii, 1000, analyze.ViaDefinition, ""))},
			profiles.Limit{AtLeast: 1000, Unit: "codepoint", Via: analyze.ViaDefinition}},
		{"no tools", []run{mk(nil)}, profiles.Limit{Unit: "codepoint"}},
		// opencode 1.18.33's code mode: 120 characters whole, 121 and
		// 1,000 cut to 119 and "...": no unit fits all three, the cap
		// does the cut ones, and 120 is the longest kept whole.
		{"whole past the cap", []run{
			mk(nil, short, def("lookup", ascii[:120], 120, analyze.ViaDefinition, "")),
			mk(nil, short, def("lookup", ascii[:121], 119, analyze.ViaDefinition, "...\n")),
			mk(nil, short, def("lookup", ascii, 119, analyze.ViaDefinition, "...\n")),
		}, profiles.Limit{Cap: 119, Whole: 120, Unit: "codepoint", Marker: "...", Measured: true, Via: analyze.ViaDefinition}},
	}
	for _, tt := range tests {
		got, _ := deriveTools(tt.runs)
		got.Note, got.UnitNote = "", ""
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%s: mismatch (-want +got):\n%s", tt.name, diff)
		}
	}
}

// TestToolDescriptionsFromExcerpts derives profiles from the committed
// evidence of real runs (internal/profiles/data/evidence) and checks
// what they say of tool descriptions: Qwen Code's listing cut at 157
// UTF-16 units and "..." and only the first line of a description of
// several lines (row tooldesc-lines-1000), Claude Code 2.1.285's definitions cut at
// 2,048; Claude Code 2.1.328 names only, with the 4,096 it cut at when
// ENABLE_TOOL_SEARCH=false sent them; Codex its namespace only; Gemini
// every line.
func TestToolDescriptionsFromExcerpts(t *testing.T) {
	tests := []struct {
		id   string
		want profiles.Limit
	}{
		{"qwen@0.24.4", profiles.Limit{Cap: 157, Unit: "utf16", Marker: "...", Lines: profiles.LinesFirst, Measured: true, Via: analyze.ViaListing}},
		{"claude-code@2.1.285", profiles.Limit{Cap: 2048, Unit: "utf16", Marker: "… [truncated]", Measured: true, Via: analyze.ViaDefinition}},
		{"claude-code@2.1.328", profiles.Limit{Cap: 4096, Unit: "utf16", Marker: "… [truncated]", Measured: true, Via: analyze.ViaNameOnly, Unsent: true}},
		{"codex@0.169.0", profiles.Limit{Unit: "codepoint", Measured: true, Via: analyze.ViaNamespace, Unsent: true}},
		{"gemini@0.61.0", profiles.Limit{AtLeast: 6000, Unit: "codepoint", Lines: profiles.LinesAll, Trim: profiles.TrimNone, Via: analyze.ViaDefinition}},
		{"cline@3.0.65", profiles.Limit{AtLeast: 6000, Unit: "codepoint", Lines: profiles.LinesAll, Trim: profiles.TrimBoth, Via: analyze.ViaDefinition}},
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
		got := ps[0].ToolDescriptions
		got.Note, got.UnitNote, got.Wrapper, got.Meta = "", "", "", nil
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%s: mismatch (-want +got):\n%s", tt.id, diff)
		}
	}
}

// TestEarlierExcerpt: rows run on their own and derived with the earlier
// excerpt of the others (-profile-earlier) give the profile all the runs
// together give, and a run made again replaces its earlier one.
func TestEarlierExcerpt(t *testing.T) {
	x, err := ReadExcerpt(t.Context(), "../data/evidence/qwen@0.24.4.json")
	if err != nil {
		t.Fatal(err)
	}
	want, err := Profiles(x.Results, Options{Ref: "x", Evidence: x})
	if err != nil {
		t.Fatal(err)
	}
	earlier := *x
	earlier.Results = nil
	var added []analyze.Result
	for _, r := range x.Results {
		if x.Rows[r.Dir].ToolDesc != "" {
			added = append(added, r)
			continue
		}
		earlier.Results = append(earlier.Results, r)
	}
	if len(added) == 0 || len(earlier.Results) == 0 {
		t.Fatalf("the excerpt has %d tool runs and %d others, want some of each", len(added), len(earlier.Results))
	}
	// The first earlier run is made again: it must not count twice.
	earlier.Results = append(earlier.Results[:1:1], earlier.Results...)
	again := append([]analyze.Result{earlier.Results[0]}, added...)
	earlier.Results = earlier.Results[1:]
	got, err := Profiles(again, Options{Ref: "x", Evidence: x, Earlier: func(string) (*Excerpt, error) { return &earlier, nil }})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want[0].ToolDescriptions, got[0].ToolDescriptions); diff != "" {
		t.Errorf("tool descriptions: mismatch (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(want[0].Instructions, got[0].Instructions); diff != "" {
		t.Errorf("instructions: mismatch (-want +got):\n%s", diff)
	}
	if w, g := want[0].Evidence[0].Runs, got[0].Evidence[0].Runs; w != g {
		t.Errorf("%d runs, want %d: a run made again counts once", g, w)
	}
}

// TestToolMetaFromExcerpts: the tool marked anthropic/alwaysLoad is read
// alone from the committed evidence: Claude Code 2.1.328, which names the
// other tools only, sent it as a whole definition; Codex still names its
// server only; Qwen Code cuts it at 157 in its listing, as the others.
func TestToolMetaFromExcerpts(t *testing.T) {
	tests := []struct {
		id     string
		via    string
		unsent bool
		cap    int
	}{
		{"claude-code@2.1.328", analyze.ViaDefinition, false, 0},
		{"codex@0.169.0", analyze.ViaNamespace, true, 0},
		{"qwen@0.24.4", analyze.ViaListing, false, 157},
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
		l, key := ps[0].ToolDescriptions.MetaOf(map[string]json.RawMessage{"anthropic/alwaysLoad": json.RawMessage("true")})
		if key != "anthropic/alwaysLoad" || l.Via != tt.via || l.Unsent != tt.unsent || l.Cap != tt.cap {
			t.Errorf("%s: alwaysLoad tool %q via %q, unsent %v, cap %d; want via %q, unsent %v, cap %d", tt.id, key, l.Via, l.Unsent, l.Cap, tt.via, tt.unsent, tt.cap)
		}
	}
}

// TestDeriveTrim: how many characters of the padded description the run
// analysis found trimmed says from which end the client removed white
// space; runs that disagree, a count neither end gives, a description sent
// another way than the client's others, or another model measure nothing.
func TestDeriveTrim(t *testing.T) {
	lead, tail := len([]rune(labvocab.PaddedLead)), len([]rune(labvocab.PaddedTail))
	padded := func(trimmed int, via string) run {
		return run{Result: analyze.Result{Tools: []analyze.ToolFacts{
			{Name: "other", Found: true, Full: true, Via: via},
			{Name: labvocab.NamePadded, Found: true, Full: true, Via: via, Trimmed: trimmed},
		}}}
	}
	def := analyze.ViaDefinition
	for _, tc := range []struct {
		name  string
		runs  []run
		via   string
		model string
		want  string
	}{
		{"kept", []run{padded(0, def), padded(0, def)}, def, "", profiles.TrimNone},
		{"start", []run{padded(lead, def)}, def, "", profiles.TrimStart},
		{"end", []run{padded(tail, def)}, def, "", profiles.TrimEnd},
		{"both", []run{padded(lead+tail, def), padded(lead+tail, def)}, def, "", profiles.TrimBoth},
		{"runs disagree", []run{padded(lead+tail, def), padded(0, def)}, def, "", ""},
		{"neither end's count", []run{padded(1, def)}, def, "", ""},
		{"another rendering", []run{padded(lead+tail, analyze.ViaListing)}, def, "", ""},
		{"another model", []run{padded(lead+tail, def)}, def, "local-model", ""},
		{"no padded tool", []run{{}}, def, "", ""},
	} {
		if got := deriveTrim(tc.runs, tc.via, tc.model); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}
