package derive

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/instrlab/instrlab/internal/matrix"
	"github.com/instrlab/instrlab/internal/matrix/analyze"
	"github.com/instrlab/instrlab/internal/profiles"
	"github.com/instrlab/instrlab/lab"
)

// TestDeriveLines: a lines run kept whole says all, one kept to its
// first line says first, with the break when the runs kept it; no run that
// used the text, a cut elsewhere, or runs that disagree (on the break too)
// measure nothing; and a lines run, of instructions or of a tool
// description, never counts as a plain run of the cap.
func TestDeriveLines(t *testing.T) {
	in, err := lab.ParseInstructions("lines:1000")
	if err != nil {
		t.Fatal(err)
	}
	txt, err := in.For(lab.ReplyInitialize)
	if err != nil {
		t.Fatal(err)
	}
	first := utf8.RuneCountInString(strings.SplitN(txt.Text, "\n", 2)[0])
	row := matrix.Row{Name: "lines-1000", Args: lab.Args{Instr: "lines:1000"}}
	kept := func(k int, full bool) run {
		return run{Row: row, Result: analyze.Result{First: &analyze.RequestFacts{Placements: []analyze.Placement{{Reply: lab.ReplyInitialize, Kept: k, Full: full}}}}}
	}
	none := run{Row: row, Result: analyze.Result{First: &analyze.RequestFacts{}}}
	for _, tc := range []struct {
		name      string
		runs      []run
		want      string
		lineBreak bool
	}{
		{"whole", []run{kept(1000, true)}, profiles.LinesAll, false},
		{"the first line", []run{kept(first, false), kept(first, false)}, profiles.LinesFirst, false},
		{"the first line and its break", []run{kept(first+1, false), kept(first+1, false)}, profiles.LinesFirst, true},
		{"the break in one run only", []run{kept(first, false), kept(first+1, false)}, "", false},
		{"cut elsewhere", []run{kept(first+40, false)}, "", false},
		{"disagree", []run{kept(1000, true), kept(first, false)}, "", false},
		{"text unused", []run{none}, "", false},
	} {
		if got, lb := deriveLines(tc.runs); got != tc.want || lb != tc.lineBreak {
			t.Errorf("%s: %q (break %v), want %q (break %v)", tc.name, got, lb, tc.want, tc.lineBreak)
		}
	}
	tool := func(k int, found, full bool) run {
		return run{Row: matrix.Row{Name: "tooldesc-lines-1000", Args: lab.Args{Instr: "none", ToolDesc: "lines:1000"}}, Result: analyze.Result{
			ServerTexts: &analyze.ServerTexts{Tools: []analyze.NamedText{{Name: "lookup_part", Description: txt.Text}, {Name: "list_bins", Description: "One line."}}},
			Tools:       []analyze.ToolFacts{{Name: "lookup_part", Found: found, Kept: k, Full: full}, {Name: "list_bins", Found: true, Kept: 9, Full: true}},
		}}
	}
	for _, tc := range []struct {
		name string
		runs []run
		want string
	}{
		{"a tool's first line, quoted (Qwen Code)", []run{tool(first, true, false), tool(first, true, false)}, profiles.LinesFirst},
		{"a tool's description whole", []run{tool(1000, true, true)}, profiles.LinesAll},
		{"not sent", []run{tool(0, false, false)}, ""},
		{"an instructions row", []run{kept(first, false)}, ""},
	} {
		if got, lb := deriveToolLines(tc.runs); got != tc.want || lb {
			t.Errorf("tools, %s: %q (break %v), want %q", tc.name, got, lb, tc.want)
		}
	}
	others, lines := apartLines([]run{kept(first, false), tool(first, true, false), {Row: matrix.Row{Args: lab.Args{Instr: "ascii:1000"}}}})
	if len(lines) != 2 || len(others) != 1 {
		t.Errorf("apartLines: %d lines runs, %d others", len(lines), len(others))
	}
}
