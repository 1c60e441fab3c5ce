package assess

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/instrlab/instrlab/internal/probe"
	"github.com/instrlab/instrlab/internal/profiles"
)

// TestToolFates: each view predicts what becomes of every tool
// description of the server under its profile: cut at a measured cap
// (kept N of M, and where), kept whole, or not sent at all when the
// profile measured that the client sends names only; with nothing
// measured there is no prediction.
func TestToolFates(t *testing.T) {
	long := strings.Repeat("a", 150) + "0123456789" + strings.Repeat("b", 40)
	tools := []probe.Tool{{Name: "short", Description: "Look up a part."}, {Name: "long", Description: long}}
	r := result(ok(probe.Legacy, nil, tools...), notFound(), probe.Survival{}, 0)
	base := profiles.Profile{Client: "x", Name: "X", Version: "1", Render: profiles.Render{Server: "{text}"},
		Evidence: []profiles.Evidence{{Kind: "instrlab-run", Ref: "r", Says: "s"}}}
	cut, names, whole, none := base, base, base, base
	cut.Version, names.Version, whole.Version, none.Version = "cut", "names", "whole", "none"
	cut.ToolDescriptions = profiles.Limit{Cap: 157, Unit: "utf16", Marker: "...", Measured: true, Via: "listing"}
	names.ToolDescriptions = profiles.Limit{Unsent: true, Cap: 100, Unit: "codepoint", Measured: true, Via: "name only"}
	whole.ToolDescriptions = profiles.Limit{AtLeast: 100, Unit: "codepoint", Via: "definition"}
	rep := Assess([]probe.Result{r}, Options{Profiles: []profiles.Profile{cut, names, whole, none}})
	s := rep.Servers[0]
	want := [][]ToolFate{
		{{Tool: "short", Chars: 15, KeptChars: 15}, {Tool: "long", Chars: 200, KeptChars: 157, Truncated: true, Before: strings.Repeat("a", 23) + "0123456", After: "789" + strings.Repeat("b", 27)}},
		{{Tool: "short", Chars: 15, Unsent: true}, {Tool: "long", Chars: 200, Unsent: true}},
		{{Tool: "short", Chars: 15, KeptChars: 15}, {Tool: "long", Chars: 200, KeptChars: 200, Beyond: true}},
		nil,
	}
	for i, v := range s.Views {
		if diff := cmp.Diff(want[i], v.Tools, cmpopts.IgnoreUnexported(ToolFate{})); diff != "" {
			t.Errorf("%s: mismatch (-want +got):\n%s", v.Title, diff)
		}
	}
	if diff := cmp.Diff([]ToolView{{Profile: "x@cut", Client: "X cut", Era: probe.Legacy, Tool: "long", Chars: 200, Cap: 157, CapUnit: "utf16", Measured: true, KeptChars: 157}}, s.Tools); diff != "" {
		t.Errorf("tools over cap: a client that sends no description cuts none; mismatch (-want +got):\n%s", diff)
	}
	var b strings.Builder
	if err := WriteText(&b, rep, TextOptions{Verbose: true, Width: 200}); err != nil {
		t.Fatal(err)
	}
	var cells []string
	for _, row := range Clients(s).Rows {
		cells = append(cells, row[0].Text+": "+row[4].Text)
	}
	if diff := cmp.Diff([]string{"X cut: 1 of 2 cut", "X names: names only", "X whole: 2 whole (1 past measured)", "X none: not measured"}, cells); diff != "" {
		t.Errorf("tools in the table of clients: mismatch (-want +got):\n%s", diff)
	}
	for _, line := range []string{
		"tools: 1 of 2 descriptions kept whole",
		"tool long keeps 157 of 200 characters; cut: …" + strings.Repeat("a", 23) + "0123456 ✂ 789",
		"tool descriptions: not sent: the model sees each tool's name only; when sent, cut at 100 characters",
		"tools: no description of the 2 tools reaches the model",
		"tools: 2 of 2 descriptions kept whole (long longer than any measured: whole as far as measured)",
		"tool descriptions: cut at 157 UTF-16 units, then \"...\"",
	} {
		if !strings.Contains(b.String(), line) {
			t.Errorf("check's text lacks %q:\n%s", line, b.String())
		}
	}
}

// TestToolFateFirstLine: a profile that measured that its client keeps
// only the first line of a tool description of several lines (Qwen Code
// 0.24.4, quoted in its listing without the line break) predicts that
// line for such a description, cut at the cap if the line is longer, and
// says so; a description of one line is cut at the cap only.
func TestToolFateFirstLine(t *testing.T) {
	first := "Retrieves and queries up-to-date documentation."
	tools := []probe.Tool{
		{Name: "docs", Description: first + "\n\nYou must call resolve first.\n"},
		{Name: "long", Description: strings.Repeat("a", 200) + "\nmore"},
		{Name: "one", Description: strings.Repeat("c", 200)},
		{Name: "lead", Description: "\nStarts with a line break."},
	}
	r := result(ok(probe.Legacy, nil, tools...), notFound(), probe.Survival{}, 0)
	p := profiles.Profile{Client: "x", Name: "X", Version: "1", Render: profiles.Render{Server: "{text}"},
		Evidence:         []profiles.Evidence{{Kind: "instrlab-run", Ref: "r", Says: "s"}},
		ToolDescriptions: profiles.Limit{Cap: 157, Unit: "utf16", Marker: "...", Lines: profiles.LinesFirst, Measured: true, Via: "listing"}}
	rep := Assess([]probe.Result{r}, Options{Profiles: []profiles.Profile{p}})
	var got []string
	for _, f := range rep.Servers[0].Views[0].Tools {
		got = append(got, fmt.Sprintf("%s %d/%d first line %v", f.Tool, f.KeptChars, f.Chars, f.FirstLine))
	}
	want := []string{"docs 47/78 first line true", "long 157/205 first line true", "one 157/200 first line false", "lead 0/26 first line true"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
	var b strings.Builder
	if err := WriteText(&b, rep, TextOptions{Verbose: true, Width: 300}); err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{
		"tool docs keeps only its first line, 47 of 78 characters (measured: a description of several lines)",
		`tool descriptions: cut at 157 UTF-16 units, then "..."; of a description of several lines, only the first line (measured)`,
		// The findings say which rule cut each: the first line, with
		// the fix for an empty one, or the cap.
		"tool docs: the client keeps only its description's first line: 47 of 78 characters",
		"tool lead: the client keeps only its description's first line: 0 of 26 characters",
		"tool one: the client cuts its description: 200 characters, cap 157 UTF-16 units",
	} {
		if !strings.Contains(b.String(), line) {
			t.Errorf("check's text lacks %q:\n%s", line, b.String())
		}
	}
	fixes := map[string]string{}
	for _, f := range rep.Servers[0].Findings {
		if f.Code == ToolTruncated {
			fixes[f.Tool] = f.Fix
		}
	}
	for tool, fix := range map[string]string{"docs": "put what matters in its first line", "lead": "start the description with its text, not a line break",
		"one": "put what matters in its first 157 UTF-16 units"} {
		if fixes[tool] != fix {
			t.Errorf("tool %s: fix %q, want %q", tool, fixes[tool], fix)
		}
	}
}

// TestMetaKeepsTheLinesRule: Qwen Code 0.24.4 lists a tool whose _meta
// has anthropic/alwaysLoad as any other, its first line only; a
// description that starts with a line break gives the model nothing
// (issue 42: check predicted 157 characters kept, applying the key's cap
// without the lines rule). Without the key, the same.
func TestMetaKeepsTheLinesRule(t *testing.T) {
	ps, err := profiles.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	ps, err = profiles.Select(t.Context(), ps, []string{"qwen@0.24.4"})
	if err != nil {
		t.Fatal(err)
	}
	desc := "\nLooks up a part by its number and returns where it is kept, how many there are, and its price."
	always := map[string]json.RawMessage{"anthropic/alwaysLoad": json.RawMessage(`true`)}
	r := result(ok(probe.Legacy, nil, probe.Tool{Name: "lookup", Description: desc, Meta: always}, probe.Tool{Name: "plain", Description: desc}), notFound(), probe.Survival{}, 0)
	v := Assess([]probe.Result{r}, Options{Profiles: ps[:1]}).Servers[0].Views[0]
	for _, f := range v.Tools {
		if f.KeptChars != 0 || !f.Truncated {
			t.Errorf("%s (meta %q): keeps %d characters, want none (its first line is empty)", f.Tool, f.Meta, f.KeptChars)
		}
	}
}
