package report

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/instrlab/instrlab/internal/matrix/analyze"

	"github.com/google/go-cmp/cmp"
	"github.com/instrlab/instrlab/internal/client/clients"
	"github.com/instrlab/instrlab/internal/evidence"
)

// The diff fixtures are trimmed evidence (../matrix/analyze/testdata/trimrun.py
// --keep-system) of real offline runs of the seed matrix, rows none,
// en-1000, en-5000 and en-1000-dual: Claude Code 2.1.285 and 2.1.328 in
// one run, and 2.1.328 again in a second run.
const diffDir = "testdata/diff"

func openFixture(t *testing.T, name string) *Report {
	t.Helper()
	r, warnings, err := Open(t.Context(), clients.New, filepath.Join(diffDir, name))
	if err != nil || len(warnings) > 0 {
		t.Fatalf("Open %s: %v, warnings %q", name, err, warnings)
	}
	return r
}

func TestDiffSameVersionTwice(t *testing.T) {
	a, b := openFixture(t, "2.1.328"), openFixture(t, "2.1.328-again")
	// The two runs' timings differ, so the tables do.
	if cmp.Equal(a.Table, b.Table) {
		t.Fatal("the two runs' tables are equal: the fixture shows no timing noise")
	}
	d := Compare(a, b, DiffOptions{Tolerance: 0.1})
	if d.Changed() || len(d.Rows) != 4 || len(d.Pairs) != 1 {
		t.Errorf("same version twice: %d rows, pairs %q, changes %+v, not compared %q", len(d.Rows), d.Pairs, d.Changes, d.Incomparable)
	}
}

func TestDiffTwoVersions(t *testing.T) {
	d := Compare(openFixture(t, "2.1.285"), openFixture(t, "2.1.328"), DiffOptions{Tolerance: 0.1})
	type key struct{ Row, Fact, Follows string }
	var got []key
	for _, c := range d.Changes {
		if c.Clients != [2]string{"claude-code@2.1.285", "claude-code@2.1.328"} {
			t.Errorf("change on clients %q", c.Clients)
		}
		got = append(got, key{c.Row, c.Fact, c.Follows})
	}
	want := []key{
		{"none", "probe", ""},
		{"en-1000", "probe", ""},
		{"en-5000", "probe", ""},
		{"en-5000", "kept", "cap"},
		{"en-5000", "cap", ""},
		{"en-5000", "tokens", "cap"},
		{"en-1000-dual", "probe", ""},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("changes mismatch (-want +got):\n%s", diff)
	}
	for _, c := range d.Changes {
		if c.Fact == "cap" && (c.Before != "2,048" || c.After != "4,096") {
			t.Errorf("cap change %q → %q, want 2,048 → 4,096", c.Before, c.After)
		}
		if c.Fact == "probe" && (strings.Contains(c.Before, "server/discover") || !strings.HasPrefix(c.After, "server/discover")) {
			t.Errorf("probe change %q → %q: want none before, server/discover first after", c.Before, c.After)
		}
	}
	if len(d.Incomparable) > 0 {
		t.Errorf("not compared: %q", d.Incomparable)
	}
}

// TestDiffIncomparable: rows and clients on one side only, and a row
// configured differently, are said, not reported as changes.
func TestDiffIncomparable(t *testing.T) {
	a, b := openFixture(t, "2.1.285"), openFixture(t, "2.1.328")
	both := New(a.g.m, append(slices.Clone(a.g.results), b.g.results...), "")
	d := Compare(both, b, DiffOptions{Tolerance: 0.1})
	if len(d.Changes) != 0 || !slices.Contains(d.Incomparable, "client claude-code@2.1.285: only in A") {
		t.Errorf("a client only in A: changes %+v, not compared %q", d.Changes, d.Incomparable)
	}
	m := *b.g.m
	m.Rows = slices.Clone(m.Rows)
	m.Rows[1].Instr = "ascii:2000"
	var kept = b.g.results[:0:0]
	for _, r := range b.g.results {
		if r.Row != "en-5000" {
			kept = append(kept, r)
		}
	}
	d = Compare(b, New(&m, kept, ""), DiffOptions{Tolerance: 0.1})
	for _, want := range []string{"row en-5000: only in A", "row en-1000: the two matrices configure it differently"} {
		if !slices.Contains(d.Incomparable, want) {
			t.Errorf("not compared %q lacks %q", d.Incomparable, want)
		}
	}
	if len(d.Changes) != 0 || !d.Changed() {
		t.Errorf("changes %+v, Changed %v", d.Changes, d.Changed())
	}
}

// TestDiffFromResultsJSON: a results.json (with matrix.json beside it)
// compares like its evidence directory.
func TestDiffFromResultsJSON(t *testing.T) {
	dir := t.TempDir()
	a := openFixture(t, "2.1.285")
	f, err := os.Create(filepath.Join(dir, "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Write(f, "json"); err != nil {
		t.Fatal(err)
	}
	f.Close()
	m, _ := os.ReadFile(filepath.Join(diffDir, "2.1.285", evidence.MatrixFile))
	os.WriteFile(filepath.Join(dir, evidence.MatrixFile), m, 0o644)
	j, warnings, err := Open(t.Context(), clients.New, filepath.Join(dir, "results.json"))
	if err != nil || len(warnings) > 0 {
		t.Fatalf("Open results.json: %v %q", err, warnings)
	}
	b := openFixture(t, "2.1.328")
	if diff := cmp.Diff(Compare(a, b, DiffOptions{Tolerance: 0.1}).Changes, Compare(j, b, DiffOptions{Tolerance: 0.1}).Changes); diff != "" {
		t.Errorf("results.json compares differently (-dir +json):\n%s", diff)
	}
	if _, _, err := Open(t.Context(), clients.New, filepath.Join(diffDir, "2.1.285", evidence.MatrixFile)); err == nil {
		t.Error("Open of a file that is not a results.json: no error")
	}
}

// TestDiffCouldNotRun: a client of which every run of B failed (a release
// that did not install) is not compared and changes nothing: the diff
// says it could not run, with the reason, its outcome names the result
// before as standing, and the verdict still fails. One failed run among
// ok ones is a change of the runs, as before.
func TestDiffCouldNotRun(t *testing.T) {
	a, b := openFixture(t, "2.1.328"), openFixture(t, "2.1.328-again")
	failed := slices.Clone(b.g.results)
	for i := range failed {
		failed[i].Status, failed[i].Reason = "failed", "provisioning claude-code@2.1.328: npm serves no such version"
	}
	d := Compare(a, New(b.g.m, failed, ""), DiffOptions{Tolerance: 0.1})
	if len(d.Changes) != 0 || len(d.Failed) != len(d.Rows) || len(d.Rows) == 0 {
		t.Fatalf("every run of B failed: %d changes, failed %q, %d rows; want no change and one failure a row", len(d.Changes), d.Failed, len(d.Rows))
	}
	if want := "row none on claude-code@2.1.328: every run of B failed: (1 run): provisioning claude-code@2.1.328: npm serves no such version"; d.Failed[0] != want {
		t.Errorf("failed[0] = %q, want %q", d.Failed[0], want)
	}
	want := []ClientDiff{{Name: "claude-code", Before: "claude-code@2.1.328", After: "claude-code@2.1.328", Failed: true}}
	if diff := cmp.Diff(want, d.Clients); diff != "" {
		t.Errorf("clients mismatch (-want +got):\n%s", diff)
	}
	if err := d.Verdict(); err == nil || !strings.Contains(err.Error(), "4 where every run of a side failed") {
		t.Errorf("verdict %v, want the failures counted", err)
	}
	var md strings.Builder
	if err := d.Markdown(&md); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"| claude-code | 2.1.328 | 2.1.328 | not measured | **could not run (below); the result before stands** |", "could not run: row en-5000 on claude-code@2.1.328: every run of B failed"} {
		if !strings.Contains(md.String(), s) {
			t.Errorf("Markdown lacks %q:\n%s", s, md.String())
		}
	}

	one := slices.Clone(b.g.results)
	again := one[0]
	again.Repeat = 2
	one = append(one, again)
	one[0].Status, one[0].Reason = "failed", "timed out after 2m0s"
	d = Compare(a, New(b.g.m, one, ""), DiffOptions{Tolerance: 0.1})
	if len(d.Failed) != 0 || !slices.ContainsFunc(d.Changes, func(c Change) bool { return c.Fact == "runs" && strings.Contains(c.After, "1 FAILED") }) {
		t.Errorf("one run failed: failed %q, changes %+v; want a change of the runs", d.Failed, d.Changes)
	}
}

// TestDiffOneClient: -client compares that client alone; a name neither
// run ran is an error naming what each ran, written before any table.
func TestDiffOneClient(t *testing.T) {
	a, b := openFixture(t, "2.1.285"), openFixture(t, "2.1.328")
	both := New(a.g.m, append(slices.Clone(a.g.results), b.g.results...), "")
	d := Compare(both, both, DiffOptions{Tolerance: 0.1, Client: "claude-code"})
	if len(d.Pairs) != 2 || len(d.Incomparable) != 0 {
		t.Errorf("both versions on each side: pairs %q, not compared %q", d.Pairs, d.Incomparable)
	}
	var out strings.Builder
	err := WriteDiff(&out, a, b, "A", "B", DiffOptions{Tolerance: 0.1, Client: "codex", Format: "md"})
	if err == nil || err.Error() != "diff: -client codex: not a client that both runs ran (A: claude-code@2.1.285; B: claude-code@2.1.328)" || out.Len() != 0 {
		t.Errorf("-client codex: %v, wrote %q", err, out.String())
	}
}

// TestDiffRace: where a run of a side was timing-sensitive (its server's
// start-up raced the first request), the facts that differ are a race,
// said with the reason and not counted as changes; without the mark the
// same facts are changes.
func TestDiffRace(t *testing.T) {
	a, b := openFixture(t, "2.1.285"), openFixture(t, "2.1.328")
	raced := slices.Clone(b.g.results)
	for i := range raced {
		if raced[i].Row == "en-5000" {
			raced[i].Timing.Sensitive, raced[i].Timing.Why = true, "the server became ready 191 ms after the first model request"
		}
	}
	plain := Compare(a, b, DiffOptions{Tolerance: 0.1})
	d := Compare(a, New(b.g.m, raced, ""), DiffOptions{Tolerance: 0.1})
	inRow := func(cs []Change, row string) int {
		n := 0
		for _, c := range cs {
			if c.Row == row {
				n++
			}
		}
		return n
	}
	if inRow(plain.Changes, "en-5000") == 0 || inRow(d.Changes, "en-5000") != 0 || len(d.Changes) != len(plain.Changes)-inRow(plain.Changes, "en-5000") {
		t.Fatalf("en-5000 raced: %d changes (%d without the mark), %d in en-5000", len(d.Changes), len(plain.Changes), inRow(d.Changes, "en-5000"))
	}
	want := "row en-5000 on claude-code@2.1.285 → 2.1.328: a run of B was timing-sensitive (the server became ready 191 ms after the first model request); so probe, kept, cap, tokens differ by which won, not by the client (run -repeat-sensitive N for rates)"
	if len(d.Races) != 1 || d.Races[0] != want {
		t.Errorf("races %q, want [%q]", d.Races, want)
	}
	if d.Clients[0].Races != 1 || !strings.Contains(d.Outcomes().Rows[0][4].Text, "1 race") {
		t.Errorf("outcome %+v, want the race counted", d.Clients[0])
	}
	row := func(rs []analyze.Result) []analyze.Result {
		var out []analyze.Result
		for _, r := range rs {
			if r.Row == "en-5000" {
				out = append(out, r)
			}
		}
		return out
	}
	if d := Compare(New(a.g.m, row(a.g.results), ""), New(b.g.m, row(raced), ""), DiffOptions{Tolerance: 0.1}); len(d.Changes) != 0 || len(d.Races) != 1 || d.Changed() {
		t.Errorf("a race alone: changes %+v, races %q, Changed %v; want no change", d.Changes, d.Races, d.Changed())
	}
}
