package assess

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/instrlab/instrlab/internal/labvocab"
	"github.com/instrlab/instrlab/internal/matrix"
	"github.com/instrlab/instrlab/internal/probe"
	"github.com/instrlab/instrlab/internal/profiles"
)

// nameBudgetOf is a tool-name budget as instrlab budget writes it,
// measured on 2026-12-03: the tool's own name kept whole up to within
// characters, not at past, with names (the client's prefix and the
// names at the edge) when the runs showed them.
func nameBudgetOf(within, past float64, pastSays string, names *profiles.Names) profiles.Budget {
	return profiles.Budget{Name: profiles.BudgetName, Unit: "characters", Within: within, Past: past, PastBudget: pastSays,
		Names: names, Runs: 9, Date: "2026-12-03", Command: "instrlab budget -budget name"}
}

// clineNames is what Cline 3.0.65's name budget runs showed, in form:
// the prefix {server}__, a tool name of 59 characters kept (64 whole),
// one of 60 cut to 64 with "_" and a hash.
func clineNames() *profiles.Names {
	return &profiles.Names{Prefix: "{server}__", Server: "lab", Lengths: []profiles.NameLength{
		{Tool: labvocab.LongToolName(59), Chars: 59, Full: 64, Fate: profiles.FateKept, Got: 64, Runs: 1},
		{Tool: labvocab.LongToolName(60), Chars: 60, Full: 65, Fate: profiles.FateCut, Got: 64, Hash: true, Runs: 1},
	}}
}

// claudeSurfaceNames is a surface's names as Claude Code 2.1.332's:
// prefix mcp__{server}__, a name of 70 characters whole kept, one of 138
// not offered.
func claudeSurfaceNames() *profiles.Names {
	return &profiles.Names{Prefix: "mcp__{server}__", Server: "lab", Lengths: []profiles.NameLength{
		{Tool: "name_long", Chars: 60, Full: 70, Fate: profiles.FateKept, Got: 70, Runs: 2},
		{Tool: "name_max", Chars: 128, Full: 138, Fate: profiles.FateDropped, Runs: 2},
	}}
}

const deferredSays = "does not name it whole (the server's 3 other tools are named in a text, where a cut or renamed name is not read: it drops or renames it)"

// TestNameBudgetPredictions: check predicts a tool's name from a
// profile's tool-name budget, with or without the surface's names: at or
// under the longest name kept whole it is kept, past the budget it fares
// as the run past it did (cut, not offered) or, where that run could not
// tell, is past what is kept whole; the budget counts the tool's name
// alone with the lab's server, so another server's prefix moves the edge
// (exactly where the prefix was measured, by up to the difference of the
// servers' names where not); only a name between the two sides, or past
// both measurements, is not measured, as is every name of a profile
// with neither.
func TestNameBudgetPredictions(t *testing.T) {
	name := func(n int) string { return strings.Repeat("t", n) }
	withBudget := func(b profiles.Budget, s *profiles.Surface) profiles.Profile {
		p := surfaceProfile()
		p.Surface, p.Budgets = s, []profiles.Budget{b}
		return p
	}
	cline := nameBudgetOf(59, 60, "cuts it to 64 characters with its prefix, the name's first 50 characters, \"_\" and a hash of 8 (lab__lname…)", clineNames())
	clineCut := "cut to 64 characters, then _ and a hash (measured: names up to 64 characters kept, 65 cut; instrlab budget, 2026-12-03)"
	unrecorded := nameBudgetOf(59, 60, deferredSays, nil)
	unrecordedWords := "measured with a server named lab, whose prefix the runs did not show: tool names up to 59 characters kept, 60 not; past it the client " + deferredSays + "; instrlab budget, 2026-12-03"
	claude := nameBudgetOf(118, 119, deferredSays, nil)
	claudeSurface := &profiles.Surface{Runs: 2, Names: claudeSurfaceNames()}
	droppedNames := &profiles.Names{Prefix: "mcp__{server}__", Server: "lab", Lengths: []profiles.NameLength{
		{Tool: labvocab.LongToolName(118), Chars: 118, Full: 128, Fate: profiles.FateKept, Got: 128, Runs: 1},
		{Tool: labvocab.LongToolName(119), Chars: 119, Full: 129, Fate: profiles.FateDropped, Runs: 1},
	}}
	drops := nameBudgetOf(118, 119, "drops the tool (the server's 3 other tools reach the model)", droppedNames)
	unresolved := nameBudgetOf(50, 60, "cuts it to 64 characters", clineNames())
	above := nameBudgetOf(256, 0, NotMeasured, &profiles.Names{Prefix: "{server}_", Server: "lab", Lengths: []profiles.NameLength{
		{Tool: labvocab.LongToolName(256), Chars: 256, Full: 260, Fate: profiles.FateKept, Got: 260, Runs: 1}}})
	above.Above = true
	disagree := nameBudgetOf(62, 63, deferredSays, nil)
	droidSurface := &profiles.Surface{Runs: 2, Names: &profiles.Names{Prefix: "{server}___", Server: "lab", Lengths: []profiles.NameLength{
		{Tool: "name_long", Chars: 60, Full: 66, Fate: profiles.FateCut, Got: 64, Hash: true, Runs: 2}}}}
	underSetting := cline
	underSetting.Settings = map[string]string{"X": "1"}
	neither := surfaceProfile()
	neither.Surface = nil

	for _, tt := range []struct {
		name    string
		p       profiles.Profile
		server  string
		tool    int
		want    *SurfaceFate // nil: no prediction at all
		surface bool         // the profile measured schemas too
	}{
		// A budget and no surface.
		{"budget, no surface: at within", withBudget(cline, nil), "srv", 59,
			&SurfaceFate{Name: "srv__" + name(59), Chars: 64, NameFate: "kept"}, false},
		{"budget, no surface: just past", withBudget(cline, nil), "srv", 60,
			&SurfaceFate{Name: "srv__" + name(60), Chars: 65, NameFate: "cut", CutTo: 64, NameNote: clineCut}, false},
		{"a longer server's prefix: kept", withBudget(cline, nil), "github", 56,
			&SurfaceFate{Name: "github__" + name(56), Chars: 64, NameFate: "kept"}, false},
		{"a longer server's prefix: cut", withBudget(cline, nil), "github", 57,
			&SurfaceFate{Name: "github__" + name(57), Chars: 65, NameFate: "cut", CutTo: 64, NameNote: clineCut}, false},
		{"unresolved: between", withBudget(unresolved, nil), "srv", 55,
			&SurfaceFate{Name: "srv__" + name(55), Chars: 60, NameFate: NotMeasured,
				NameNote: "a name of 60 characters (measured: names up to 55 characters kept, 65 cut; instrlab budget, 2026-12-03)"}, false},
		{"unresolved: at within", withBudget(unresolved, nil), "srv", 50,
			&SurfaceFate{Name: "srv__" + name(50), Chars: 55, NameFate: "kept"}, false},
		{"above: kept", withBudget(above, nil), "srv", 256,
			&SurfaceFate{Name: "srv_" + name(256), Chars: 260, NameFate: "kept"}, false},
		{"above: longer than tried", withBudget(above, nil), "srv", 300,
			&SurfaceFate{Name: "srv_" + name(300), Chars: 304, NameFate: NotMeasured,
				NameNote: "a name of 304 characters (measured: names up to 260 characters kept, the longest tried; instrlab budget, 2026-12-03)"}, false},
		// A budget whose runs did not show the prefix, no surface.
		{"no prefix: at within", withBudget(unrecorded, nil), "srv", 59,
			&SurfaceFate{Chars: 59, NameFate: "kept"}, false},
		{"no prefix: just past", withBudget(unrecorded, nil), "srv", 60,
			&SurfaceFate{Chars: 60, NameFate: NotMeasured, NameNote: "a name of 60 characters is past the longest kept whole (" + unrecordedWords + ")"}, false},
		{"no prefix, a longer server: kept", withBudget(unrecorded, nil), "github", 56,
			&SurfaceFate{Chars: 56, NameFate: "kept"}, false},
		{"no prefix, a longer server: between", withBudget(unrecorded, nil), "github", 57,
			&SurfaceFate{Chars: 57, NameFate: NotMeasured,
				NameNote: "a name of 57 characters (" + unrecordedWords + "): this server's name is 6 characters, lab's 3, and the client's prefix may hold it"}, false},
		{"no prefix, a longer server: past", withBudget(unrecorded, nil), "github", 60,
			&SurfaceFate{Chars: 60, NameFate: NotMeasured, NameNote: "a name of 60 characters is past the longest kept whole (" + unrecordedWords + ")"}, false},
		// Both: the surface's prefix, its lengths past the budget.
		{"both: at within", withBudget(claude, claudeSurface), "srv", 118,
			&SurfaceFate{Name: "mcp__srv__" + name(118), Chars: 128, NameFate: "kept"}, true},
		{"both: just past, its fate not read", withBudget(claude, claudeSurface), "srv", 119,
			&SurfaceFate{Name: "mcp__srv__" + name(119), Chars: 129, NameFate: NotMeasured,
				NameNote: "a name of 129 characters is past the longest kept whole (measured: names up to 128 characters kept, 129 not; past it the client " + deferredSays + "; instrlab budget, 2026-12-03)"}, true},
		{"both: the surface's drop", withBudget(claude, claudeSurface), "srv", 128,
			&SurfaceFate{Name: "mcp__srv__" + name(128), Chars: 138, NameFate: "dropped", NameNote: "not offered (measured: a name of 138 was not)"}, true},
		{"both: the budget's drop", withBudget(drops, claudeSurface), "srv", 119,
			&SurfaceFate{Name: "mcp__srv__" + name(119), Chars: 129, NameFate: "dropped",
				NameNote: "not offered (measured: names up to 128 characters kept, 129 not offered; past it the client drops the tool (the server's 3 other tools reach the model); instrlab budget, 2026-12-03)"}, true},
		{"both: disagree", withBudget(disagree, droidSurface), "srv", 60,
			&SurfaceFate{Name: "srv___" + name(60), Chars: 66, NameFate: NotMeasured,
				NameNote: "a name of 66 characters: the measurements disagree (measured: names up to 68 characters kept, 69 not; past it the client " + deferredSays + "; instrlab budget, 2026-12-03; the surface's: a name of 66 was not kept whole)"}, true},
		// The surface alone, as before the budget.
		{"surface only: between", withBudget(profiles.Budget{}, claudeSurface), "srv", 100,
			&SurfaceFate{Name: "mcp__srv__" + name(100), Chars: 110, NameFate: NotMeasured, NameNote: "a name of 110 characters: kept whole up to 70"}, true},
		// Neither, or a budget measured under a setting only.
		{"neither", neither, "srv", 59, nil, false},
		{"a budget under a setting", withBudget(underSetting, nil), "srv", 59, nil, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if tt.p.Budgets != nil && tt.p.Budgets[0].Name == "" {
				tt.p.Budgets = nil
			}
			if err := tt.p.Validate(); err != nil {
				t.Fatalf("the profile is not valid: %v", err)
			}
			tool := name(tt.tool)
			r := result(ok(probe.Legacy, nil, probe.Tool{Name: tool}), notFound(), probe.Survival{}, 0)
			r.Target.Name = tt.server
			rep := Assess([]probe.Result{r}, Options{Profiles: []profiles.Profile{tt.p}})
			got := rep.Servers[0].Views[0].Surface
			if tt.want == nil {
				if got != nil {
					t.Fatalf("predicts %+v, want nothing (not measured)", got)
				}
				return
			}
			tt.want.Tool = tool
			if diff := cmp.Diff([]SurfaceFate{*tt.want}, got); diff != "" {
				t.Errorf("prediction mismatch (-want +got):\n%s", diff)
			}
			var b strings.Builder
			if err := WriteText(&b, rep, TextOptions{Verbose: true, Width: 1000}); err != nil {
				t.Fatal(err)
			}
			head := "names: 1 of 1 tool keep their name whole (measured by instrlab budget); input schemas and results not measured"
			if tt.want.NameFate != "kept" {
				head = "names: 0 of 1 tool keep their name whole"
			}
			if tt.surface {
				head = "surface: "
			}
			if !strings.Contains(b.String(), head) {
				t.Errorf("the text says no %q:\n%s", head, b.String())
			}
			// The fact says where the names come from.
			fact := "results, schemas, names: results and schemas not measured; names from the tool-name budget (measured"
			if tt.surface {
				fact = "; names from the tool-name budget (measured"
			}
			if tt.p.Budgets == nil {
				fact = "results, schemas, names: names behind mcp__{server}__; prompts and resources not measured\n"
			}
			if !strings.Contains(b.String(), fact) {
				t.Errorf("the text says no %q:\n%s", fact, b.String())
			}
		})
	}
}

// TestNameBudgetFindings: a name the budget predicts cut or not offered
// is a name-cut or name-dropped finding, with the budget's evidence; one
// whose prefix was not measured says so rather than give a whole name.
func TestNameBudgetFindings(t *testing.T) {
	cline := surfaceProfile()
	cline.Surface, cline.Budgets = nil, []profiles.Budget{nameBudgetOf(59, 60, "cuts it to 64 characters", clineNames())}
	unrecorded := surfaceProfile()
	unrecorded.Version, unrecorded.Surface = "2", nil
	unrecorded.Budgets = []profiles.Budget{nameBudgetOf(59, 60, "drops the tool", &profiles.Names{Prefix: "mcp__{server}__", Server: "lab", Lengths: []profiles.NameLength{
		{Tool: labvocab.LongToolName(60), Chars: 60, Full: 70, Fate: profiles.FateDropped, Runs: 1}}})}
	long := strings.Repeat("t", 62)
	r := result(ok(probe.Legacy, nil, probe.Tool{Name: long}, probe.Tool{Name: "get"}), notFound(), probe.Survival{}, 0)
	rep := Assess([]probe.Result{r}, Options{Profiles: []profiles.Profile{cline, unrecorded}})
	var got []string
	for _, f := range rep.Servers[0].Findings {
		if f.Code == NameCut || f.Code == NameDropped {
			got = append(got, f.Level+" "+string(f.Code)+": "+f.Said())
		}
	}
	want := []string{
		"warn name-cut: tool " + long + ": its name is 67 characters as the client names it (srv__" + long + "): cut to 64 characters, then _ and a hash (measured: names up to 64 characters kept, 65 cut; instrlab budget, 2026-12-03)",
		"warn name-dropped: tool " + long + ": mcp__srv__" + long + " as the client names it, 72 characters: not offered (measured: names up to 69 characters kept, 70 not offered; past it the client drops the tool; instrlab budget, 2026-12-03); the model cannot call it",
	}
	if diff := cmp.Diff(sorted(want), sorted(got)); diff != "" {
		t.Errorf("findings mismatch (-want +got):\n%s", diff)
	}
}

// TestLabServerName: the server a budget that records none ran is the
// lab's, by the name the matrix files it under.
func TestLabServerName(t *testing.T) {
	if labServer != matrix.ServerName {
		t.Errorf("labServer %q, the matrix's lab server %q", labServer, matrix.ServerName)
	}
}

// TestNamesThatPrefixEachOther: a tool whose name is the start of
// another's (list_directory beside list_directory_with_sizes) is kept only
// where the client was measured to keep such a name; where not measured,
// it says so; a name neither starts nor is started by keeps its fate.
func TestNamesThatPrefixEachOther(t *testing.T) {
	tools := []probe.Tool{{Name: "list_directory"}, {Name: "list_directory_with_sizes"}, {Name: "read"}}
	fates := func(chars []profiles.NameChars) []string {
		p := surfaceProfile()
		p.Surface.Names = claudeSurfaceNames()
		p.Surface.Names.Chars = chars
		r := result(ok(probe.Legacy, nil, tools...), notFound(), probe.Survival{}, 0)
		rep := Assess([]probe.Result{r}, Options{Profiles: []profiles.Profile{p}})
		var out []string
		for _, f := range rep.Servers[0].Views[0].Surface {
			out = append(out, f.Tool+" "+f.NameFate+" "+f.NameNote)
		}
		return out
	}
	measured := []profiles.NameChars{
		{Kind: profiles.NamePrefix, Tool: labvocab.NamePrefix, Fate: profiles.FateKept, Runs: 2},
		{Kind: profiles.NamePrefixed, Tool: labvocab.NamePrefixed, Fate: profiles.FateKept, Runs: 2},
	}
	if diff := cmp.Diff([]string{"list_directory kept ", "list_directory_with_sizes kept ", "read kept "}, fates(measured)); diff != "" {
		t.Errorf("measured kept (-want +got):\n%s", diff)
	}
	want := []string{
		"list_directory not measured a name with another tool's name starting with it",
		"list_directory_with_sizes not measured a name with another tool's name as its start",
		"read kept ",
	}
	if diff := cmp.Diff(want, fates(nil)); diff != "" {
		t.Errorf("not measured (-want +got):\n%s", diff)
	}
	measured[1].Fate = profiles.FateDropped
	if got := fates(measured)[1]; got != "list_directory_with_sizes dropped not offered (measured: name_prefix_with_more, with another tool's name as its start, was not)" {
		t.Errorf("dropped: %q", got)
	}
}

// TestToolFateTrim: white space a client removes around a description is
// neither kept nor lost, and a first-line client that trims the start
// keeps the first line of words; one not measured keeps it as sent.
func TestToolFateTrim(t *testing.T) {
	desc := "\n  Lists a directory.\nMore.\n"
	r := result(ok(probe.Legacy, nil, probe.Tool{Name: "ls", Description: desc}), notFound(), probe.Survival{}, 0)
	for _, tc := range []struct {
		trim, lines string
		want        string
	}{
		{profiles.TrimBoth, profiles.LinesAll, "ls 24/28 trimmed 4 cut false"},
		{profiles.TrimBoth, profiles.LinesFirst, "ls 18/28 trimmed 4 cut true"},
		{"", profiles.LinesAll, "ls 28/28 trimmed 0 cut false"},
	} {
		p := profiles.Profile{Client: "x", Name: "X", Version: "1", Render: profiles.Render{Server: "{text}"},
			Evidence:         []profiles.Evidence{{Kind: "instrlab-run", Ref: "r", Says: "s"}},
			ToolDescriptions: profiles.Limit{Cap: 1000, Unit: "codepoint", Lines: tc.lines, Trim: tc.trim, Measured: true, Via: "definition"}}
		rep := Assess([]probe.Result{r}, Options{Profiles: []profiles.Profile{p}})
		f := rep.Servers[0].Views[0].Tools[0]
		if got := fmt.Sprintf("%s %d/%d trimmed %d cut %v", f.Tool, f.KeptChars, f.Chars, f.Trimmed, f.Truncated); got != tc.want {
			t.Errorf("trim %q lines %s: %s, want %s", tc.trim, tc.lines, got, tc.want)
		}
	}
}

// TestServerNameChars: a client whose prefix holds the server's name
// makes of a hyphen in it what the surface-names-server row measured:
// Codex CLI 0.171.0 wrote lab-hyphen as lab_hyphen in its namespace, so
// server-everything's is mcp__server_everything, the tool's own name kept;
// a client measured to keep it keeps it; where not measured, a client that
// renames hyphens in tool names leaves the name not measured.
func TestServerNameChars(t *testing.T) {
	codexNames := func(servers []profiles.NameChars) *profiles.Names {
		return &profiles.Names{Namespace: "mcp__{server}", Server: "lab", Servers: servers,
			Lengths: []profiles.NameLength{{Tool: "name_long", Chars: 60, Full: 67, Fate: "kept", Got: 67, Runs: 2}},
			Chars:   []profiles.NameChars{{Kind: profiles.NameHyphen, Tool: "name-hyphen-case", Fate: "rewritten", Name: "name_hyphen_case", Runs: 2}}}
	}
	fate := func(n *profiles.Names) SurfaceFate {
		p := surfaceProfile()
		p.Surface.Names = n
		r := result(ok(probe.Legacy, nil, probe.Tool{Name: "echo"}), notFound(), probe.Survival{}, 0)
		r.Target.Name = "server-everything"
		return Assess([]probe.Result{r}, Options{Profiles: []profiles.Profile{p}}).Servers[0].Views[0].Surface[0]
	}
	f := fate(codexNames([]profiles.NameChars{{Kind: profiles.NameHyphen, Tool: "lab-hyphen", Fate: "rewritten", Name: "lab_hyphen", Runs: 2}}))
	if f.Name != "mcp__server_everything__echo" || f.NameFate != "kept" || f.Chars != len(f.Name) {
		t.Errorf("measured rewritten: %+v", f)
	}
	f = fate(codexNames([]profiles.NameChars{{Kind: profiles.NameHyphen, Tool: "lab-hyphen", Fate: "kept", Name: "lab-hyphen", Runs: 2}}))
	if f.Name != "mcp__server-everything__echo" || f.NameFate != "kept" {
		t.Errorf("measured kept: %+v", f)
	}
	f = fate(codexNames(nil))
	if f.NameFate != NotMeasured || !strings.Contains(f.NameNote, "in the prefix before a tool's name was not measured (in a tool's name: rewritten, measured with name-hyphen-case)") {
		t.Errorf("not measured: %+v", f)
	}
	f = fate(codexNames([]profiles.NameChars{{Kind: profiles.NameHyphen, Tool: "lab-hyphen", Fate: "rewritten", Name: "labhyphen", Runs: 2}}))
	if f.NameFate != NotMeasured {
		t.Errorf("a rewrite not one character for one: %+v", f)
	}
}
