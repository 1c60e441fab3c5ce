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
// first line (with or without the break) says first; no run that used the
// text, a cut elsewhere, or runs that disagree measure nothing; and a
// lines run never counts as a plain run of the cap.
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
	row := matrix.Row{Name: "lines-1000", Instr: "lines:1000"}
	kept := func(k int, full bool) run {
		return run{Row: row, Result: analyze.Result{First: &analyze.RequestFacts{Placements: []analyze.Placement{{Reply: lab.ReplyInitialize, Kept: k, Full: full}}}}}
	}
	none := run{Row: row, Result: analyze.Result{First: &analyze.RequestFacts{}}}
	for _, tc := range []struct {
		name string
		runs []run
		want string
	}{
		{"whole", []run{kept(1000, true)}, profiles.LinesAll},
		{"the first line", []run{kept(first, false), kept(first+1, false)}, profiles.LinesFirst},
		{"cut elsewhere", []run{kept(first+40, false)}, ""},
		{"disagree", []run{kept(1000, true), kept(first, false)}, ""},
		{"text unused", []run{none}, ""},
	} {
		if got := deriveLines(tc.runs); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
	others, lines := apartLines([]run{kept(first, false), {Row: matrix.Row{Instr: "ascii:1000"}}})
	if len(lines) != 1 || len(others) != 1 {
		t.Errorf("apartLines: %d lines runs, %d others", len(lines), len(others))
	}
}
