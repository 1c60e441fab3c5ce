package report

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/instrlab/instrlab/internal/matrix"
	"github.com/instrlab/instrlab/internal/matrix/analyze"
	"github.com/instrlab/instrlab/internal/table"
	"github.com/instrlab/instrlab/internal/unit"
)

// A grid is the results of a matrix run arranged once: rows in matrix
// order, clients in the order first seen, the summary of each row on each
// client. Every view (the full table, the terminal summary, the page,
// diff) reads a grid.
type grid struct {
	m       *matrix.Matrix
	results []analyze.Result
	// root is the evidence directory the results' Dirs are under, for
	// links relative to it; "" for no links.
	root string
	// clients are the column groups: a client, or a client in an arm
	// other than its default (Result.Who).
	clients []string
	rows    []string
	labels  map[string]string
	by      map[string]map[string]*summary // client (Who) → row → summary
	// units is what each client's default cap counts.
	units map[string]unit.Finding
}

// summary holds the results of one row on one client.
type summary struct {
	results []*analyze.Result
	delta   string
	deltaN  float64
	deltaOK bool
	unit    unit.Finding // what the client's default cap counts
}

func newGrid(m *matrix.Matrix, results []analyze.Result, root string) *grid {
	g := &grid{m: m, results: results, root: root, by: map[string]map[string]*summary{}}
	for i := range results {
		r := &results[i]
		who := r.Who()
		if g.by[who] == nil {
			g.by[who] = map[string]*summary{}
			g.clients = append(g.clients, who)
		}
		s := g.by[who][r.Row]
		if s == nil {
			s = &summary{}
			g.by[who][r.Row] = s
		}
		s.results = append(s.results, r)
	}
	for _, rows := range g.by {
		for _, s := range rows {
			sort.Slice(s.results, func(i, j int) bool { return s.results[i].Repeat < s.results[j].Repeat })
		}
	}
	g.rows, g.labels = order(m, results)
	baseline := "" // no matrix.json: no baseline
	if m != nil {
		baseline = m.Baseline
	}
	g.units = map[string]unit.Finding{}
	for _, c := range g.clients {
		var all []*analyze.Result
		for _, s := range g.by[c] {
			all = append(all, s.results...)
		}
		g.units[c] = analyze.UnitFinding(all)
		base := g.by[c][baseline]
		for _, s := range g.by[c] {
			s.delta = deltaText(s, base)
			s.deltaN, s.deltaOK = deltaTokens(s, base)
			s.unit = g.units[c]
		}
	}
	return g
}

// at is the summary of row on client, nil when not run.
func (g *grid) at(client, row string) *summary { return g.by[client][row] }

// Build makes the table of results, rows in the order of m, one column
// group per client in the order first seen.
func Build(m *matrix.Matrix, results []analyze.Result) table.Table {
	return newGrid(m, results, "").table()
}

// table is the full table: every column of every client.
func (g *grid) table() table.Table {
	t := table.Table{Title: "What reached the model", Columns: []table.Column{{Name: "row"}}}
	for _, c := range g.clients {
		for _, col := range columns {
			t.Columns = append(t.Columns, table.Column{Group: c, Name: col.name})
		}
	}
	for _, name := range g.rows {
		row := []table.Cell{{Text: g.labels[name]}}
		first := map[int]string{}
		for ci, c := range g.clients {
			s := g.at(c, name)
			for k, col := range columns {
				cell := table.Cell{Text: "not run"}
				if s != nil {
					cell = g.cell(s, col)
				}
				if ci == 0 || first[k] == "" {
					first[k] = cell.Text
				} else if cell.Text != first[k] && s != nil && first[k] != "not run" {
					cell.Diff = true
				}
				row = append(row, cell)
			}
		}
		t.Rows = append(t.Rows, row)
	}
	t.Notes = append(append(notes(g.m, g.results), unitNotes(g.clients, g.units)...), serverNotes(g.results)...)
	return t
}

// cell makes one column's cell of s, linked to the evidence file of its
// first run. When no run has that file the cell says so instead of a
// value made from nothing; unreadable lines in it are counted.
func (g *grid) cell(s *summary, col column) table.Cell {
	if col.file == "" || len(s.results) == 0 {
		return table.Cell{Text: col.cell(s)}
	}
	r := s.results[0]
	file := evidenceFile(r, col.file)
	c := table.Cell{Link: g.link(r, file)}
	if file == "" {
		c.Text = col.cell(s)
		return c
	}
	missing, empty, special, bad := 0, 0, 0, 0
	for _, r := range s.results {
		info, err := os.Stat(filepath.Join(r.Dir, filepath.FromSlash(file)))
		if err != nil {
			missing++
			continue
		}
		if !info.Mode().IsRegular() {
			// A FIFO or a device, which the analysis refused to read
			// (jsonl.Open): not an empty file.
			special++
			continue
		}
		if info.Size() == 0 {
			empty++
			continue
		}
		for _, w := range r.Warnings {
			if unreadableLine(w, path.Base(file)) {
				bad++
			}
		}
	}
	switch {
	case missing == len(s.results):
		c.Text = "not recorded: no " + file
	case special == len(s.results):
		c.Text = "not read: " + file + " is not a regular file"
	case empty == len(s.results):
		c.Text = "not recorded: " + file + " is empty"
	case missing+empty+special == len(s.results):
		c.Text = fmt.Sprintf("not recorded: no %s in %d runs, empty or not a regular file in %d", file, missing, empty+special)
	case missing > 0 || empty > 0 || special > 0:
		c.Text = fmt.Sprintf("%s (%d of %d runs have no %s, an empty one, or one that is not a regular file)", col.cell(s), missing+empty+special, len(s.results), file)
	default:
		c.Text = col.cell(s)
	}
	if bad > 0 {
		c.Text += fmt.Sprintf(" (%s unreadable in %s)", table.Plural(bad, "line"), path.Base(file))
	}
	return c
}

// unreadableLine reports whether warning w is about a line of the file
// named base that could not be read: "base:N: why", as package jsonl
// writes it. A warning about the file's content ("stdout.txt: server lab:
// …", a host's failed server) is not one.
func unreadableLine(w, base string) bool {
	i := strings.Index(w, base+":")
	if i < 0 {
		return false
	}
	rest := w[i+len(base)+1:]
	n := 0
	for n < len(rest) && rest[n] >= '0' && rest[n] <= '9' {
		n++
	}
	return n > 0 && n < len(rest) && rest[n] == ':'
}

// evidenceFile resolves a column's file for one run: the client's own
// files by what they hold, from those its observation read.
func evidenceFile(r *analyze.Result, file string) string {
	var hint string
	switch file {
	case fileDebug:
		hint = "debug"
	case fileTranscript:
		hint = "home/"
	default:
		return file
	}
	for _, f := range r.Observation.Files {
		if strings.Contains(f, hint) {
			return f
		}
	}
	return ""
}

// link is file of run r relative to the evidence root, "" without one.
func (g *grid) link(r *analyze.Result, file string) string {
	if g.root == "" || file == "" {
		return ""
	}
	rel, err := filepath.Rel(g.root, r.Dir)
	if err != nil {
		return ""
	}
	return path.Join(filepath.ToSlash(rel), file)
}
