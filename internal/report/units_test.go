package report

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/instrlab/instrlab/internal/client"
	"github.com/instrlab/instrlab/internal/matrix/analyze"
	"github.com/instrlab/instrlab/internal/profiles"
	"github.com/instrlab/instrlab/internal/profiles/derive"
	"github.com/instrlab/instrlab/internal/table"
	"github.com/instrlab/instrlab/internal/unit"
	"github.com/instrlab/instrlab/lab"
)

// TestSingleCutNamesItsUnit: a user's server serving 3,000 code points of
// "🚀x" through a client that counts UTF-16 units (Claude Code 2.1.328:
// "truncated from 4500 to 4096") is reported with the cap that check
// states for that client, in the same unit: 4,096 UTF-16 units, not the
// 2,730 code points kept; with no log line, the round cap says the same.
func TestSingleCutNamesItsUnit(t *testing.T) {
	text := strings.Repeat("🚀x", 1500)
	// What check says Claude Code 2.1.328 keeps of it, from its profile.
	ps, err := profiles.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	sel, err := profiles.Select(t.Context(), ps, []string{"claude-code@2.1.328"})
	if err != nil {
		t.Fatal(err)
	}
	cut := sel[0].Instructions.Apply(text, 0)
	checkSays := table.Num(cut.Cap) + " " + cut.Unit.Short()
	kept := cut.Kept // what the client kept, as measured (TestInferSingleCut)
	if kept != unit.UTF16.Prefix(text, 4096) {
		t.Fatalf("check keeps %d code points, the client 2,730", cut.KeptChars)
	}
	for _, truncations := range [][]client.Truncation{{{Server: "emoji", From: 4500, To: 4096}}, nil} {
		r := analyze.Result{Client: "claude-code@2.1.328", Row: "emoji", Status: "ok", Plain: true, Sent: 3000, Instr: "none", Server: "emoji",
			ServerTexts: &analyze.ServerTexts{Instructions: map[lab.Reply]string{lab.ReplyInitialize: text}},
			First:       &analyze.RequestFacts{Placements: []analyze.Placement{{Reply: lab.ReplyInitialize, Kept: unit.CodePoint.Count(kept)}}},
			Observation: client.Observation{Truncations: truncations}}
		g := newGrid(nil, []analyze.Result{r}, "")
		var b strings.Builder
		table.Text(&b, g.summaryTable())
		if !strings.Contains(b.String(), checkSays) || strings.Contains(b.String(), "2,730 characters") {
			t.Errorf("truncations %v: check says %q; run's summary:\n%s", truncations, checkSays, b.String())
		}
	}
}

// TestCapUnitOfASettingRow: on the committed evidence of Claude Code
// 2.1.332 (internal/profiles/data/evidence), row en-20000-cap25-comma
// sets CLAUDE_CODE_MAX_MCP_DESCRIPTION_LENGTH=25,000, which the client
// ignores (its log: "truncated from 20000 to 4096"), and is cut where the
// plain row en-20000 is. Every output states both cuts the same way, in
// the unit the client's plain runs decide: "4,096 UTF-16 units", where the
// summary once said "4,096 chars" for the row that set something.
func TestCapUnitOfASettingRow(t *testing.T) {
	x, err := derive.ReadExcerpt(t.Context(), filepath.Join("..", "profiles", "data", "evidence", "claude-code@2.1.332.json"))
	if err != nil {
		t.Fatal(err)
	}
	// The default arm's runs: the excerpt holds model arms too, each a
	// client line of its own under a row.
	results := slices.DeleteFunc(slices.Clone(x.Results), func(r analyze.Result) bool { return r.Arm.Name != "" && !r.Arm.Default })
	g := newGrid(nil, results, "")
	if u := g.units["claude-code@2.1.332"].Decided(); u != unit.UTF16 {
		t.Fatalf("the plain runs decide %q, want %q", u, unit.UTF16)
	}
	const want = "4,096 UTF-16 units"
	rows := []string{"en-20000-cap25-comma", "en-20000"}
	cell := func(tb table.Table, col string, first func(name string) string) map[string]string {
		got := map[string]string{}
		k := slices.IndexFunc(tb.Columns, func(c table.Column) bool { return c.Name == col })
		if k < 0 {
			t.Fatalf("%q: no column %q", tb.Title, col)
		}
		for _, row := range tb.Rows {
			for _, name := range rows {
				if row[0].Text == first(name) && len(row) > k {
					got[name] = row[k].Text
				}
			}
		}
		return got
	}
	summary := cell(g.summaryTable(), "cap", func(name string) string { return name })
	// The full table's column, as its cell is made (g.table() links it to
	// evidence files an excerpt does not keep).
	full := map[string]string{}
	k := slices.IndexFunc(columns, func(c column) bool { return c.name == "implied cap" })
	if k < 0 {
		t.Fatal("no column implied cap")
	}
	for _, name := range rows {
		full[name] = columns[k].cell(g.at("claude-code@2.1.332", name))
	}
	page := map[string]string{}
	for _, b := range g.bars() {
		page[b.Row] = b.Cap
	}
	for _, name := range rows {
		for _, out := range []struct{ what, got string }{{"summary", summary[name]}, {"table", full[name]}, {"page", page[name]}} {
			if out.got != want {
				t.Errorf("%s, row %s: cap %q, want %q", out.what, name, out.got, want)
			}
		}
	}
	var b strings.Builder
	table.Text(&b, g.summaryTable())
	if strings.Contains(b.String(), "4,096 chars") {
		t.Errorf("the summary says 4,096 chars:\n%s", b.String())
	}
}
