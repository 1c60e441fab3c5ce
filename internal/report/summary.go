package report

import (
	"fmt"
	"strings"

	"github.com/instrlab/instrlab/internal/matrix/analyze"
	"github.com/instrlab/instrlab/internal/table"
	"github.com/instrlab/instrlab/internal/unit"
)

// summaryColumns are the columns of the terminal summary, one line per
// row and client: did the text arrive, where, how much, and the
// cap it implies with its unit.
var summaryColumns = []struct {
	name string
	cell func(s *summary) string
}{
	{"arrived", func(s *summary) string { return s.join(arrivedText) }},
	{"where", func(s *summary) string { return s.join(whereText) }},
	{"kept", func(s *summary) string { return s.join(keptShort) }},
	{"cap", func(s *summary) string {
		return s.join(func(r *analyze.Result) string {
			return strings.Replace(capWithUnit(r, s.unit), " characters", " chars", 1)
		})
	}},
}

// summaryTable is the short table run prints on a terminal: with one
// client, a line per row under the client's name; with
// several, each row's name on a line of its own, then a line
// per client, indented, so that the names share a column.
func (g *grid) summaryTable() table.Table {
	one := len(g.clients) == 1
	t := table.Table{Columns: []table.Column{{Name: "row"}}}
	note := "row: the matrix row (-row NAME), each client run in it indented under it"
	if one {
		t.Title, note = "Client: "+g.clients[0], "row: the matrix row (-row NAME)"
	}
	for _, c := range summaryColumns {
		t.Columns = append(t.Columns, table.Column{Name: c.name})
	}
	for _, name := range g.rows {
		if !one {
			t.Rows = append(t.Rows, []table.Cell{{Text: name, Span: true}})
		}
		for _, c := range g.clients {
			s := g.at(c, name)
			if s == nil {
				continue
			}
			row := []table.Cell{{Text: "  " + c}}
			if one {
				row[0].Text = name
			}
			if f := s.failed(); f != "" {
				row = append(row, table.Cell{Text: f, Strong: true, Span: true})
				t.Rows = append(t.Rows, row)
				continue
			}
			for _, col := range summaryColumns {
				row = append(row, table.Cell{Text: col.cell(s)})
			}
			t.Rows = append(t.Rows, row)
		}
	}
	t.Notes = []string{note + "; kept in characters (chars, Unicode code points) of the server's text, cap in the unit of its cut (the client's default cap's, when cut there; else its log's, or the one unit that makes it round; chars when none tells); full tables in the output directory or with -format md|csv|json|html."}
	t.Notes = append(t.Notes, serverNotes(g.results)...)
	return t
}

// failed says why no run of s finished ok, "" when one did.
func (s *summary) failed() string {
	why := s.failedWhy()
	if why == "" {
		return ""
	}
	return "FAILED " + why
}

// failedWhy counts the runs of s and joins their reasons when none
// finished ok, as in "(2 runs): timed out after 2m0s"; "" when one did.
func (s *summary) failedWhy() string {
	for _, r := range s.results {
		if r.Status == "ok" {
			return ""
		}
	}
	var reasons []string
	for _, r := range s.results {
		reasons = append(reasons, r.Reason)
	}
	return fmt.Sprintf("(%s): %s", table.Plural(len(s.results), "run"), strings.Join(unique(reasons), "; "))
}

func arrivedText(r *analyze.Result) string {
	switch b := r.First.Best(); {
	case r.Sent == 0:
		return "no text sent"
	case r.First == nil:
		return "no request"
	case b == nil:
		if q := laterArrival(r); q != nil {
			return fmt.Sprintf("not in the first request; in request %d", q.Seq)
		}
		return "no"
	case b.Full && b.Trimmed > 0:
		return "trimmed"
	case b.Full:
		return "whole"
	}
	return "cut"
}

// laterArrival is the first main request after the first that holds the
// server's text.
func laterArrival(r *analyze.Result) *analyze.RequestFacts {
	for i := range r.Requests {
		q := &r.Requests[i]
		if !q.Side && q.Best() != nil && (r.First == nil || q.Seq != r.First.Seq) {
			return q
		}
	}
	return nil
}

func whereText(r *analyze.Result) string {
	b := r.First.Best()
	if b == nil {
		if q := laterArrival(r); q != nil {
			b = q.Best()
		}
	}
	if r.Sent == 0 || b == nil {
		return "—"
	}
	return string(b.Kind)
}

func keptShort(r *analyze.Result) string {
	if r.Sent == 0 {
		return "—"
	}
	b := r.First.Best()
	if b == nil {
		if q := laterArrival(r); q != nil {
			b = q.Best()
		}
	}
	if b == nil {
		return "0 of " + table.Num(r.Sent)
	}
	return table.Num(b.Kept) + " of " + table.Num(r.Sent)
}

// capWithUnit is capText with its unit always named: characters (code
// points) unless unit.CapOf decides another.
func capWithUnit(r *analyze.Result, f unit.Finding) string {
	c := capText(r, f)
	if c == "—" {
		if q := laterArrival(r); q != nil {
			c = capText(&analyze.Result{Sent: r.Sent, Instr: r.Instr, ServerTexts: r.ServerTexts, Observation: r.Observation, First: q}, f)
		}
	}
	if c == "—" {
		return c
	}
	if last := c[len(c)-1]; last >= '0' && last <= '9' {
		c += " characters"
	}
	return c
}
