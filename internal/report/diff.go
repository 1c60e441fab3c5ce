package report

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"

	"github.com/instrlab/instrlab/internal/loss"

	"github.com/instrlab/instrlab/internal/cli"
	"github.com/instrlab/instrlab/internal/evidence"
	"github.com/instrlab/instrlab/internal/matrix"
	"github.com/instrlab/instrlab/internal/matrix/analyze"
	"github.com/instrlab/instrlab/internal/table"
	"github.com/instrlab/instrlab/schema"
)

// A Diff is what changed between two runs of a matrix: per row
// and client, the facts (the columns that name one) whose values differ,
// timings left out and token estimates compared within a tolerance; and
// what could not be compared, instead of changes that mean nothing.
type Diff struct {
	A string `json:"a"`
	B string `json:"b"`
	// Pairs are the clients compared, A's then B's (two versions of one
	// client pair when each side has one).
	Pairs   [][2]string `json:"pairs"`
	Rows    []string    `json:"rows"`
	Changes []Change    `json:"changes"`
	// Clients are the outcome of each pair of Pairs, in its order.
	Clients []ClientDiff `json:"clients,omitempty"`
	// Incomparable says what could not be compared and why.
	Incomparable []string `json:"incomparable,omitempty"`
	// Failed says, per row and pair, where every run of one
	// side failed (a version that did not install, or that its flags no
	// longer drive): not compared, and not a change of behaviour.
	Failed []string `json:"failed,omitempty"`
	// Races says, per row and pair, where facts differ but a
	// run of a side was timing-sensitive (its server's start-up raced the
	// client's first request, analyze.Timing): which order won decided
	// them, so they are said and not counted as changes.
	Races []string `json:"races,omitempty"`
	// Tolerance is the share by which token estimates may differ.
	Tolerance float64 `json:"tolerance"`
}

// A Change is one fact of one row on one client that differs.
//
// Clients are the client compared, A's and B's, each name@version
// (diff.v2.json; v1's "client" wrote the pair as one label, "codex@0.169.0
// → 0.171.0", which the table still shows).
type Change struct {
	Row     string    `json:"row"`
	Clients [2]string `json:"clients"`
	Fact    string    `json:"fact"`
	Before  string    `json:"before"`
	After   string    `json:"after"`
	// Follows names the change this one follows from (kept and tokens
	// follow a changed cap), "" for a change of its own.
	Follows string `json:"follows,omitempty"`
}

// A ClientDiff is the outcome of one client compared: its version on
// each side, how many facts changed, whether every run of a side failed,
// and, on users' servers, its verdict on each side (the worst of its
// servers'; "" where none is measured).
type ClientDiff struct {
	Name          string       `json:"name"`
	Before        string       `json:"before"`
	After         string       `json:"after"`
	Changes       int          `json:"changes"`
	Failed        bool         `json:"failed,omitempty"`
	Races         int          `json:"races,omitempty"`
	VerdictBefore loss.Verdict `json:"verdict_before,omitempty"`
	VerdictAfter  loss.Verdict `json:"verdict_after,omitempty"`
}

// DiffFormats are the formats of a diff: a table for a terminal, the
// same as Markdown (each client's outcome first: a job summary, an
// issue's body), or JSON (named as schema.Diff).
var DiffFormats = table.Formats{"text", "md", "json"}

// DiffOptions are how two runs are compared and their changes written
// (instrlab diff, run -baseline).
type DiffOptions struct {
	// Tolerance is the share by which two token estimates may differ and
	// count as equal.
	Tolerance float64
	// Format is one of DiffFormats; JSON (-json) stands for "json".
	Format string
	JSON   bool
	// Client, when set, compares only the client of that name.
	Client string
}

// Validate rejects a tolerance outside [0, 1) and a format not in
// DiffFormats, naming the flag.
func (o DiffOptions) Validate() error {
	if o.Tolerance < 0 || o.Tolerance >= 1 {
		return fmt.Errorf("-tolerance %g: want a share from 0 to below 1", o.Tolerance)
	}
	if o.Format != "" {
		return DiffFormats.Check(o.Format)
	}
	return nil
}

// WriteDiff compares a with b, named nameA and nameB, writes the
// changes, and returns their Verdict.
func WriteDiff(w io.Writer, a, b *Report, nameA, nameB string, o DiffOptions) error {
	d := Compare(a, b, o)
	d.A, d.B = nameA, nameB
	if o.Client != "" && len(d.Pairs) == 0 {
		return fmt.Errorf("diff: -client %s: not a client that both runs ran (%s: %s; %s: %s)", o.Client, nameA, strings.Join(a.g.clients, ", "), nameB, strings.Join(b.g.clients, ", "))
	}
	var err error
	switch {
	case o.JSON || o.Format == "json":
		err = table.JSON(w, schema.Named(schema.Diff, d))
	case o.Format == "md":
		err = d.Markdown(w)
	default:
		err = table.Text(w, d.Table())
	}
	if err != nil {
		return err
	}
	return d.Verdict()
}

// Verdict is nil when the two runs had something in common and nothing
// in it changed; else an error that says what changed, or that nothing
// could be compared (the runs had no row or client in common).
func (d Diff) Verdict() error {
	if len(d.Pairs) == 0 || len(d.Rows) == 0 {
		return fmt.Errorf("diff: nothing in common to compare between %s and %s", d.A, d.B)
	}
	if d.Changed() {
		return fmt.Errorf("diff: %s, %d not compared, %d where every run of a side failed", table.Plural(len(d.Changes), "change"), len(d.Incomparable), len(d.Failed))
	}
	return nil
}

// Changed reports whether the diff found a change, something it could
// not compare, or a side whose runs all failed.
func (d Diff) Changed() bool {
	return len(d.Changes) > 0 || len(d.Incomparable) > 0 || len(d.Failed) > 0
}

// minTokens is the smallest difference of token estimates reported,
// whatever the tolerance.
const minTokens = 25

// Compare compares two reports: every client, or o.Client's alone.
func Compare(a, b *Report, o DiffOptions) Diff {
	tolerance := o.Tolerance
	d := Diff{Tolerance: tolerance, Changes: []Change{}, Pairs: [][2]string{}, Rows: []string{}, Clients: []ClientDiff{}}
	d.Pairs, d.Incomparable = pairClients(named(a.g.clients, o.Client), named(b.g.clients, o.Client))
	for _, p := range d.Pairs {
		name, _, _ := strings.Cut(p[0], "@")
		d.Clients = append(d.Clients, ClientDiff{Name: name, Before: p[0], After: p[1], VerdictBefore: worstVerdict(a.g.results, p[0]), VerdictAfter: worstVerdict(b.g.results, p[1])})
	}
	for _, row := range a.g.rows {
		if !slices.Contains(b.g.rows, row) {
			d.Incomparable = append(d.Incomparable, fmt.Sprintf("row %s: only in A", row))
			continue
		}
		if why := rowsDiffer(a.g.m, b.g.m, row); why != "" {
			d.Incomparable = append(d.Incomparable, fmt.Sprintf("row %s: %s", row, why))
			continue
		}
		d.Rows = append(d.Rows, row)
		for i, p := range d.Pairs {
			c := &d.Clients[i]
			sa, sb := a.g.at(p[0], row), b.g.at(p[1], row)
			switch {
			case sa == nil && sb == nil:
				continue
			case sa == nil || sb == nil:
				d.Incomparable = append(d.Incomparable, fmt.Sprintf("row %s on %s: run on one side only", row, pairName(p)))
				continue
			}
			if why := failedSide(sa, sb); why != "" {
				d.Failed = append(d.Failed, fmt.Sprintf("row %s on %s: %s", row, pairName(p), why))
				c.Failed = true
				continue
			}
			changes := compareSummaries(row, p, sa, sb, tolerance)
			if why := raced(sa, sb); why != "" && len(changes) > 0 {
				var facts []string
				for _, c := range changes {
					facts = append(facts, c.Fact)
				}
				d.Races = append(d.Races, fmt.Sprintf("row %s on %s: %s; so %s differ by which won, not by the client (run -repeat-sensitive N for rates)", row, pairName(p), why, strings.Join(facts, ", ")))
				c.Races++
				continue
			}
			d.Changes = append(d.Changes, changes...)
			c.Changes += len(changes)
		}
	}
	for _, row := range b.g.rows {
		if !slices.Contains(a.g.rows, row) {
			d.Incomparable = append(d.Incomparable, fmt.Sprintf("row %s: only in B", row))
		}
	}
	return d
}

// named are the clients (as grid.clients names them) of the given name,
// or all of them when name is "".
func named(clients []string, name string) []string {
	if name == "" {
		return clients
	}
	var out []string
	for _, c := range clients {
		if n, _, _ := strings.Cut(c, "@"); n == name {
			out = append(out, c)
		}
	}
	return out
}

// failedSide says which side of a comparison could not run (every run of
// it failed) and why, "" when both had a run that finished.
func failedSide(a, b *summary) string {
	fa, fb := a.failedWhy(), b.failedWhy()
	switch {
	case fa != "" && fb != "":
		return fmt.Sprintf("every run failed on both sides (A: %s; B: %s)", fa, fb)
	case fa != "":
		return "every run of A failed: " + fa
	case fb != "":
		return "every run of B failed: " + fb
	}
	return ""
}

// raced says which side had a timing-sensitive run and why, "" when
// neither had.
func raced(a, b *summary) string {
	for i, s := range []*summary{a, b} {
		for _, r := range s.results {
			if r.Status == analyze.StatusOK && r.Timing.Sensitive {
				return fmt.Sprintf("a run of %s was timing-sensitive (%s)", [2]string{"A", "B"}[i], r.Timing.Why)
			}
		}
	}
	return ""
}

// worstVerdict is the worst verdict of the client who (as Result.Who
// names it) on the users' servers of results, "" when none is measured.
func worstVerdict(results []analyze.Result, who string) loss.Verdict {
	var mine []analyze.Result
	for _, r := range results {
		if r.Who() == who {
			mine = append(mine, r)
		}
	}
	var worst loss.Verdict
	for _, v := range Verdicts(mine) {
		if v.Verdict != loss.VerdictUnknown && (worst == "" || v.Verdict.Rank() < worst.Rank()) {
			worst = v.Verdict
		}
	}
	return worst
}

func compareSummaries(row string, clients [2]string, a, b *summary, tolerance float64) []Change {
	var out []Change
	for _, col := range columns {
		if col.fact == "" {
			continue
		}
		if col.num != nil {
			x, okA := col.num(a)
			y, okB := col.num(b)
			if okA != okB || okA && math.Abs(x-y) > max(tolerance*max(math.Abs(x), math.Abs(y)), minTokens) {
				out = append(out, Change{row, clients, col.fact, col.cell(a), col.cell(b), ""})
			}
			continue
		}
		key := col.cell
		if col.key != nil {
			key = col.key
		}
		if key(a) != key(b) {
			out = append(out, Change{row, clients, col.fact, col.cell(a), col.cell(b), ""})
		}
	}
	if slices.ContainsFunc(out, func(c Change) bool { return c.Fact == factCap }) {
		for i := range out {
			if out[i].Fact == factKept || out[i].Fact == factTokens {
				out[i].Follows = factCap
			}
		}
	}
	return out
}

// pairClients pairs equal client@version names, then the two versions of
// a client that each side ran in one version only.
func pairClients(a, b []string) ([][2]string, []string) {
	pairs := [][2]string{}
	var why []string
	var restA, restB []string
	for _, c := range a {
		if slices.Contains(b, c) {
			pairs = append(pairs, [2]string{c, c})
		} else {
			restA = append(restA, c)
		}
	}
	for _, c := range b {
		if !slices.Contains(a, c) {
			restB = append(restB, c)
		}
	}
	name := func(c string) string { n, _, _ := strings.Cut(c, "@"); return n }
	count := func(list []string, n string) int {
		k := 0
		for _, c := range list {
			if name(c) == n {
				k++
			}
		}
		return k
	}
	var pairedB []string
	for _, c := range restA {
		n := name(c)
		if count(restA, n) == 1 && count(restB, n) == 1 && count(a, n) == 1 && count(b, n) == 1 {
			for _, o := range restB {
				if name(o) == n {
					pairs = append(pairs, [2]string{c, o})
					pairedB = append(pairedB, o)
				}
			}
			continue
		}
		why = append(why, fmt.Sprintf("client %s: only in A", c))
	}
	for _, c := range restB {
		if !slices.Contains(pairedB, c) {
			why = append(why, fmt.Sprintf("client %s: only in B", c))
		}
	}
	return pairs, why
}

func pairName(p [2]string) string {
	if p[0] == p[1] {
		return p[0]
	}
	_, v, _ := strings.Cut(p[1], "@")
	return p[0] + " → " + v
}

// rowsDiffer says why row is not the same row in both matrices,
// "" when it is (or when a matrix is unknown). Repeats may differ.
func rowsDiffer(a, b *matrix.Matrix, name string) string {
	if a == nil || b == nil {
		return ""
	}
	ra, rb := findRow(a, name), findRow(b, name)
	if ra == nil || rb == nil {
		return ""
	}
	x, y := a.Resolved(*ra), b.Resolved(*rb)
	x.Repeats, y.Repeats, x.Label, y.Label = 0, 0, "", ""
	if !reflect.DeepEqual(x, y) {
		return "the two matrices configure it differently"
	}
	return ""
}

func findRow(m *matrix.Matrix, name string) *matrix.Row {
	for i := range m.Rows {
		if m.Rows[i].Name == name {
			return &m.Rows[i]
		}
	}
	return nil
}

// Table is the diff for people: one line per change, then what could not
// be compared as notes.
func (d Diff) Table() table.Table {
	t := table.Table{Title: fmt.Sprintf("Changes from %s to %s", d.A, d.B), Columns: []table.Column{{Name: "row"}, {Name: "client"}, {Name: "fact"}, {Name: "before"}, {Name: "after"}}}
	// With one pair of clients, the note names it, not a column.
	one := len(d.Pairs) == 1
	if one {
		t.Columns = slices.Delete(t.Columns, 1, 2)
	}
	for _, c := range d.Changes {
		fact := c.Fact
		if c.Follows != "" {
			fact += " (follows " + c.Follows + ")"
		}
		row := []table.Cell{{Text: c.Row}, {Text: pairName(c.Clients)}, {Text: fact}, {Text: c.Before}, {Text: c.After}}
		if one {
			row = slices.Delete(row, 1, 2)
		}
		t.Rows = append(t.Rows, row)
	}
	var compared []string
	for _, p := range d.Pairs {
		compared = append(compared, pairName(p))
	}
	t.Notes = append(t.Notes, fmt.Sprintf("%s in %s on %s; timings ignored, token estimates within %.0f%% (or %d tokens) taken as equal.",
		table.Plural(len(d.Changes), "change"), table.Plural(len(d.Rows), "row"), strings.Join(compared, ", "), 100*d.Tolerance, minTokens))
	for _, w := range d.Incomparable {
		t.Notes = append(t.Notes, "not compared: "+w)
	}
	for _, w := range d.Failed {
		t.Notes = append(t.Notes, "could not run: "+w)
	}
	for _, w := range d.Races {
		t.Notes = append(t.Notes, "a race, not compared: "+w)
	}
	return t
}

// Outcomes is the table of each client's outcome: its versions, its
// verdicts on users' servers, and whether anything changed, or a side
// could not run (then the other side's verdict stands).
func (d Diff) Outcomes() table.Table {
	t := table.Table{Title: "Clients compared", Columns: []table.Column{{Name: "client"}, {Name: "before"}, {Name: "after"}, {Name: "verdict"}, {Name: "outcome"}}}
	for _, c := range d.Clients {
		verdict := string(c.VerdictAfter)
		if c.VerdictBefore != c.VerdictAfter {
			verdict = orNot(string(c.VerdictBefore)) + " → " + orNot(string(c.VerdictAfter))
		}
		outcome := "no change"
		switch {
		case c.Failed:
			outcome = "could not run (below); the result before stands"
		case c.Changes > 0:
			outcome = table.Plural(c.Changes, "change")
		}
		if c.Races > 0 {
			outcome += " (and " + table.Plural(c.Races, "race") + ": timing-sensitive, below)"
		}
		_, before, _ := strings.Cut(c.Before, "@")
		_, after, _ := strings.Cut(c.After, "@")
		t.Rows = append(t.Rows, []table.Cell{{Text: c.Name}, {Text: before}, {Text: after}, {Text: orNot(verdict)}, {Text: outcome, Strong: c.Failed || c.Changes > 0}})
	}
	return t
}

func orNot(s string) string {
	if s == "" {
		return string(loss.VerdictUnknown)
	}
	return s
}

// Markdown writes the diff for a job summary or an issue: each client's
// outcome, then the changes and their notes, server text escaped as
// table.Markdown escapes it.
func (d Diff) Markdown(w io.Writer) error {
	if err := table.Markdown(w, d.Outcomes()); err != nil {
		return err
	}
	if _, err := io.WriteString(w, "\n"); err != nil {
		return err
	}
	return table.Markdown(w, d.Table())
}

// MaxResults is the most of a results.json Open reads: a run of a
// thousand runs writes a few MiB.
const MaxResults = 256 << 20

// Open reads what diff compares: an evidence directory (re-analysed with
// clients, as Load), or a results.json written by run (with the
// matrix.json beside it, when there is one).
// A results.json is read up to MaxResults bytes, and given up when ctx
// is done.
func Open(ctx context.Context, clients analyze.Clients, path string) (*Report, []string, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, nil, err
	}
	if st.IsDir() {
		m, results, warnings, err := Load(ctx, clients, path)
		if err != nil {
			return nil, nil, err
		}
		return New(m, results, path), warnings, nil
	}
	b, err := cli.ReadFile(ctx, path, MaxResults)
	if err != nil {
		return nil, nil, err
	}
	var f ResultsFile
	if err := json.Unmarshal(b, &f); err != nil {
		return nil, nil, fmt.Errorf("%s: not a results.json: %w", path, err)
	}
	if len(f.Results) == 0 {
		return nil, nil, errors.New(path + ": no results")
	}
	var m *matrix.Matrix
	var warnings []string
	mp := evidence.OutDir(filepath.Dir(path)).Matrix()
	if _, err := os.Stat(mp); err == nil {
		if m, err = matrix.Load(ctx, mp); err != nil {
			return nil, nil, err
		}
	} else {
		warnings = append(warnings, fmt.Sprintf("%s: no %s beside it; rows in result order, no baseline", path, evidence.MatrixFile))
	}
	return New(m, f.Results, ""), warnings, nil
}
