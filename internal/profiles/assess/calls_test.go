package assess

import (
	"reflect"
	"strings"
	"testing"

	"github.com/instrlab/instrlab/internal/probe"
	"github.com/instrlab/instrlab/internal/profiles"
)

// callProfile measured content text kept, structuredContent alone kept,
// and of both the structuredContent only (Claude Code 2.1.332's forms),
// and a result budget of 100 characters.
func callProfile(b *profiles.Budget) profiles.Profile {
	p := profiles.Profile{Client: "x", Version: "1", Surface: &profiles.Surface{Runs: 1, Results: []profiles.ResultForm{
		{Case: profiles.ResultContent, Runs: 1, Content: profiles.FateKept},
		{Case: profiles.ResultStructured, Runs: 1, Structured: profiles.FateKept},
		{Case: profiles.ResultBoth, Runs: 1, Content: profiles.FateDropped, Structured: profiles.FateKept},
	}}}
	if b != nil {
		p.Budgets = []profiles.Budget{*b}
	}
	return p
}

func sized(s string) *probe.Size { z := probe.SizeOf(s); return &z }

// TestCallFates: what a profile predicts of a called tool's result. The
// form is the measured one of the result's case; the size is judged on
// the part that reaches the model, whole when its bytes are within the
// budget, cut when its characters are past it, and between the two the
// unit decides (not measured); a result the profile has no budget for,
// or a call that failed, predicts no size.
func TestCallFates(t *testing.T) {
	budget := &profiles.Budget{Name: profiles.BudgetResult, Unit: "characters", Within: 100, Past: 101, PastBudget: "cuts it: the model gets its first 40 characters"}
	ascii, long := strings.Repeat("a", 100), strings.Repeat("a", 101)
	jp := strings.Repeat("日", 60) // 60 characters, 180 bytes
	calls := []probe.CallResult{
		{Tool: "fits", Outcome: probe.OutcomeOK, Text: sized(ascii)},
		{Tool: "long", Outcome: probe.OutcomeOK, Text: sized(long)},
		{Tool: "unit", Outcome: probe.OutcomeOK, Text: sized(jp)},
		{Tool: "both", Outcome: probe.OutcomeOK, Text: sized("short"), Structured: sized(`{"k":"` + long + `"}`)},
		{Tool: "structured", Outcome: probe.OutcomeOK, Structured: sized(`{"k":1}`)},
		{Tool: "image", Outcome: probe.OutcomeOK, Blocks: map[string]int{"image": 1}},
		{Tool: "failed", Outcome: probe.OutcomeError, Detail: "error -32603: boom"},
	}
	got := callFates(callProfile(budget), calls)
	want := []CallFate{
		{Tool: "fits", Form: "content text", Size: SizeWhole, Limit: 100, Chars: 100, Part: "content text"},
		{Tool: "long", Form: "content text", Size: SizeCut, Limit: 100, Chars: 101, Part: "content text", Past: budget.PastBudget},
		{Tool: "unit", Form: "content text", Size: SizeUnit, Limit: 100, Chars: 60, Part: "content text"},
		// Of both, this client gives the structuredContent: its length decides.
		{Tool: "both", Form: "structuredContent", Size: SizeCut, Limit: 100, Chars: 109, Part: "structuredContent", Past: budget.PastBudget},
		{Tool: "structured", Form: "structuredContent", Size: SizeWhole, Limit: 100, Chars: 7, Part: "structuredContent"},
		{Tool: "image", Form: NotMeasured, Size: NotMeasured, Other: []string{"image"}},
	}
	if len(got) != len(want) {
		t.Fatalf("%d fates, want %d (a failed call predicts nothing): %+v", len(got), len(want), got)
	}
	for i := range want {
		if !reflect.DeepEqual(got[i], want[i]) {
			t.Errorf("%s:\n got %+v\nwant %+v", want[i].Tool, got[i], want[i])
		}
	}

	// No budget: the form alone.
	for _, f := range callFates(callProfile(nil), calls[:2]) {
		if f.Size != NotMeasured || f.Limit != 0 || f.Form != "content text" {
			t.Errorf("without a budget %s = %+v, want its form and size not measured", f.Tool, f)
		}
	}
	// A budget measured under a setting is not the default's.
	set := *budget
	set.Settings = map[string]string{"MAX_MCP_OUTPUT_TOKENS": "100000"}
	if f := callFates(callProfile(&set), calls[1:2])[0]; f.Size != NotMeasured {
		t.Errorf("a budget under a setting judged the default: %+v", f)
	}
	// A client measured whole up to the longest tried: within it whole,
	// past it not measured.
	above := &profiles.Budget{Name: profiles.BudgetResult, Unit: "characters", Within: 100, Above: true}
	fs := callFates(callProfile(above), calls[:2])
	if fs[0].Size != SizeWhole || fs[1].Size != NotMeasured {
		t.Errorf("above the range: %+v, want whole then not measured", fs)
	}
}

// TestCallFindings: a result past a client's budget is a result-cut
// finding naming the tool, its length and what the model gets; one the
// unit decides says the unit is not measured; a whole one is none.
func TestCallFindings(t *testing.T) {
	v := View{Client: "X 1", Profile: "x@1", Calls: []CallFate{
		{Tool: "fits", Form: "content text", Size: SizeWhole, Limit: 100, Chars: 100, Part: "content text"},
		{Tool: "long", Form: "content text", Size: SizeCut, Limit: 100, Chars: 1234, Part: "content text", Past: "cuts it: the model gets its first 40 characters"},
		{Tool: "unit", Form: "content text", Size: SizeUnit, Limit: 100, Chars: 60, Part: "content text"},
	}}
	var l findingList
	callFindings(&l, v)
	if len(l) != 2 {
		t.Fatalf("%d findings, want 2: %+v", len(l), l)
	}
	if l[0].Code != ResultCut || l[0].Tool != "long" || !strings.Contains(l[0].Said(), "tool long: its result (its content text: 1,234 characters)") || !strings.Contains(l[0].Message, "first 40 characters") {
		t.Errorf("cut finding: %+v", l[0])
	}
	if !strings.Contains(l[1].Message, "unit") || !strings.Contains(l[1].Message, NotMeasured) {
		t.Errorf("unit finding: %+v", l[1])
	}
}

// TestCallLines: a result with blocks other than text says their fate is
// not predicted, beside what is.
func TestCallLines(t *testing.T) {
	got := callLines([]CallFate{{Tool: "img", Form: "content text", Size: SizeWhole, Limit: 100, Chars: 64, Part: "content text", Other: []string{"image"}}})
	want := "result of img: the model gets its content text; its content text of 64 characters whole (up to 100 measured); its image blocks: not measured here"
	if len(got) != 1 || got[0] != want {
		t.Errorf("callLines = %q, want %q", got, want)
	}
}

// TestResultFact: the fact line of a profile's result budget.
func TestResultFact(t *testing.T) {
	if f := resultFact(profiles.Profile{}); f.Measured || f.Value != NotMeasured {
		t.Errorf("no budget: %+v", f)
	}
	p := callProfile(&profiles.Budget{Name: profiles.BudgetResult, Unit: "characters", Within: 50000, Past: 50001, PastBudget: "cuts it", Model: "local-model"})
	f := resultFact(p)
	if !f.Measured || f.Value != "whole up to 50,000 characters (one text block of ASCII text; what it counts not measured); past it cuts it (model local-model)" {
		t.Errorf("fact = %+v", f)
	}
}

// TestCallNonObject: a result whose structuredContent is not an object is
// predicted only from a measurement of that shape: a client measured to
// reject it (neither part reached the model) gets a broken finding naming
// the shape; one measured to pass the content text on gets it; one not
// measured with the shape says so, whatever it measured of objects.
func TestCallNonObject(t *testing.T) {
	p := callProfile(nil)
	p.Surface.Results = append(p.Surface.Results,
		profiles.ResultForm{Case: profiles.ResultStringStructured, Runs: 1, Content: profiles.FateDropped, Structured: profiles.FateDropped},
		profiles.ResultForm{Case: profiles.ResultNullStructured, Runs: 1, Content: profiles.FateKept})
	calls := []probe.CallResult{
		{Tool: "str", Outcome: probe.OutcomeOK, Text: sized("t"), Structured: sized(`"s"`), StructuredType: "string"},
		{Tool: "nul", Outcome: probe.OutcomeOK, Text: sized("t"), StructuredType: "null"},
		{Tool: "arr", Outcome: probe.OutcomeOK, Text: sized("t"), Structured: sized(`["s"]`), StructuredType: "array"},
	}
	got := callFates(p, calls)
	want := []CallFate{
		{Tool: "str", Form: "neither", Size: NotMeasured, Shape: "string"},
		{Tool: "nul", Form: "content text", Size: NotMeasured, Chars: 1, Part: "content text", Shape: "null"},
		{Tool: "arr", Form: NotMeasured + ": structuredContent an array", Size: NotMeasured, Chars: 1, Part: "content text", Shape: "array"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("fates:\n got %+v\nwant %+v", got, want)
	}
	var l findingList
	callFindings(&l, View{Client: "X 1", Profile: "x@1", Calls: got})
	if len(l) != 1 || l[0].Code != ResultRejected || l[0].Tool != "str" || !strings.Contains(l[0].Message, "structuredContent is a string, not an object") {
		t.Fatalf("findings %+v, want one result-rejected for str", l)
	}
	lines := callLines(got)
	if !strings.Contains(lines[0], "neither its content text nor its structuredContent; its structuredContent is a string, not an object") ||
		!strings.Contains(lines[2], "which of its parts: not measured: structuredContent an array") {
		t.Errorf("lines %q", lines)
	}
}

// TestCallSecondLimit: past a budget's second limit the model gets what
// was measured there (Claude Code 2.1.332: an error and a path, not the
// preview past 50,000); between the two lengths measured around it, both
// are said; within it, the first budget's outcome alone.
func TestCallSecondLimit(t *testing.T) {
	p := callProfile(&profiles.Budget{Name: profiles.BudgetResult, Unit: "characters", Within: 50000, Past: 50001, PastBudget: "a preview",
		Second: &profiles.SecondLimit{Within: 101000, Past: 101100, PastBudget: "an error and a path", Counts: "tokens", Runs: 1, Date: "2026-12-05", Command: "c"}})
	calls := []probe.CallResult{
		{Tool: "preview", Outcome: probe.OutcomeOK, Text: sized(strings.Repeat("a", 60000))},
		{Tool: "between", Outcome: probe.OutcomeOK, Text: sized(strings.Repeat("a", 101050))},
		{Tool: "error", Outcome: probe.OutcomeOK, Text: sized(strings.Repeat("a", 200000))},
		{Tool: "whole", Outcome: probe.OutcomeOK, Text: sized("a")},
	}
	want := []string{
		"a preview",
		"a preview, or past a second limit between 101,000 and 101,100 characters (the client counts tokens): an error and a path",
		"an error and a path (past 101,100 characters (the client counts tokens))",
		"",
	}
	for i, f := range callFates(p, calls) {
		if f.Past != want[i] {
			t.Errorf("%s: past %q, want %q", f.Tool, f.Past, want[i])
		}
	}
}

// TestCallNeither: a result of which the client gives the model neither
// part (measured of its case) names no part to judge the length of: its
// line says neither, not "its content text of 0 characters".
func TestCallNeither(t *testing.T) {
	p := callProfile(nil)
	p.Surface.Results[0].Content = profiles.FateDropped // content text alone: dropped
	fs := callFates(p, []probe.CallResult{{Tool: "t", Outcome: probe.OutcomeOK, Text: sized("abc")}})
	if len(fs) != 1 || fs[0].Form != "neither" || fs[0].Part != "" || fs[0].Chars != 0 {
		t.Fatalf("fates %+v, want neither with no part", fs)
	}
	if l := callLines(fs)[0]; l != "result of t: the model gets neither its content text nor its structuredContent" {
		t.Errorf("line %q", l)
	}
}

// TestCallSizeCounted: where the result budget's unit was measured (runs
// of astral text at its edge), a result of text outside the Basic
// Multilingual Plane is judged in that unit: 30,000 emoji are 60,000
// UTF-16 units, past a budget of 50,000 counted in them, and within one
// counted in code points; unmeasured, the unit decides, not measured.
func TestCallSizeCounted(t *testing.T) {
	emoji := sized(strings.Repeat("😀", 30000))
	for _, tc := range []struct{ counts, want string }{{"utf16", SizeCut}, {"codepoint", SizeWhole}, {"", SizeUnit}} {
		p := callProfile(&profiles.Budget{Name: profiles.BudgetResult, Unit: "characters", Within: 50000, Past: 50001, PastBudget: "a preview", Counts: tc.counts})
		f := callFates(p, []probe.CallResult{{Tool: "t", Outcome: probe.OutcomeOK, Text: emoji}})[0]
		if f.Size != tc.want {
			t.Errorf("counted in %q: size %q, want %q", tc.counts, f.Size, tc.want)
		}
		if tc.want == SizeCut && f.Counted != "60,000 UTF-16 units" {
			t.Errorf("counted in %q: %q, want the length in what the client counts", tc.counts, f.Counted)
		}
	}
}
