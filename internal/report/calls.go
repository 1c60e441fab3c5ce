package report

import (
	"fmt"
	"slices"
	"strings"

	"github.com/instrlab/instrlab/internal/matrix/analyze"
	"github.com/instrlab/instrlab/internal/surface"
	"github.com/instrlab/instrlab/internal/table"
)

// callsTable is the terminal's table of the calls a run made of a user's
// server's tools (run -call): per row, client and tool, the
// name the model called it by, whether the server got the call, and what
// of each part of the result reached the model; a scripted call the
// client never made says "did not call" and why. Runs that agree are one
// line; runs that differ are a line each, counted. Empty for runs of the
// lab, whose surfaces the page's grids show.
func (g *grid) callsTable() table.Table {
	t := table.Table{Title: "Calls of the server's tools (-call)", Columns: []table.Column{
		{Name: "row"}, {Name: "client"}, {Name: "tool"}, {Name: "called as"}, {Name: "server got it"}, {Name: "the model got"}}}
	for _, row := range g.rows {
		for _, c := range g.clients {
			for _, l := range g.agreed(c, row, func(r *analyze.Result) ([][]string, bool) {
				if r.Server == "" || r.Surface == nil {
					return nil, false
				}
				return callLines(r.Surface), true
			}) {
				t.Rows = append(t.Rows, []table.Cell{{Text: row}, {Text: c}, {Text: l[0]}, {Text: l[1]}, {Text: l[2]}, {Text: l[3]}})
			}
		}
	}
	if len(g.rows) == 1 { // the row is the same on every line
		t.Columns = t.Columns[1:]
		for i := range t.Rows {
			t.Rows[i] = t.Rows[i][1:]
		}
	}
	if len(t.Rows) > 0 {
		t.Notes = []string{"the model got: each part of the tool's result in the request after the call, kept (in the form it was sent), rewritten (another form, cut, or outside the call's result) or dropped; the page (table.html) links each to its evidence."}
		t.Notes = append(t.Notes, g.toolModels()...)
	}
	return t
}

// toolModels says, once per client, which model its runs named for the
// calls in place of its default, and why (analyze.Result.Model): every
// fact of those runs, the placement of the instructions too, is of that
// model.
func (g *grid) toolModels() []string {
	var out []string
	for _, c := range g.clients {
		for _, row := range g.rows {
			s := g.at(c, row)
			if s == nil || len(s.results) == 0 || s.results[0].Model == "" {
				continue
			}
			r := s.results[0]
			out = append(out, fmt.Sprintf("%s ran with model %s, not its default, for the calls: %s; every fact of these runs is of that model.", c, r.Model, r.ModelWhy))
			break
		}
	}
	return out
}

// callLines are one run's calls as lines: tool, called as, server got it,
// what the model got; then its scripted calls never made.
func callLines(f *analyze.SurfaceFacts) [][]string {
	var out [][]string
	for _, c := range f.Calls {
		as := c.Name
		if c.Namespace != "" {
			as = c.Namespace + " · " + c.Name
		}
		if c.Deferred != "" {
			as += " (through " + c.Deferred + ")"
		}
		got := "yes"
		switch {
		case !c.Reached:
			got = "no"
		case c.Answer != surface.AnswerResult:
			got = "yes, " + c.Answer
		case c.IsError:
			got = "yes, isError"
		}
		parts := partLines(c)
		model := strings.Join(parts, "; ")
		switch {
		case !c.Reached || c.Following == 0:
			model = callCell(c, "").Detail
		case len(parts) == 0:
			model = "no part of the result was recorded"
		case c.Instead != "":
			model += fmt.Sprintf("; the call's result in the request (%s characters) begins %s", table.Num(c.ResultChars), table.Quote(c.Instead, 80))
		}
		out = append(out, []string{c.Tool, as, got, model})
	}
	for _, m := range f.NotCalled {
		out = append(out, []string{m.Tool, "—", "—", "did not call: " + m.Why})
	}
	return out
}

// partLines says what became of each part of c's result; two parts of one
// text (a content text that is the structuredContent serialized) are one
// line, since which of them the client gave cannot be told.
func partLines(c surface.CallFacts) []string {
	var out []string
	done := map[string]bool{}
	for _, p := range c.Parts {
		if done[p.Part] {
			continue
		}
		if q := sameAs(c.Parts, p); q != nil {
			done[q.Part] = true
			line := p.Part + " = " + q.Part + ": "
			switch r := p; {
			case p.Reached || q.Reached:
				if !r.Reached {
					r = *q
				}
				line += "reached as " + r.Form
				if !r.Full {
					line += fmt.Sprintf(", cut: %d of %d characters", r.Kept, r.Sent)
				}
				if !r.InResult {
					line += ", in " + string(r.Where)
				}
			default:
				line += fateDropped
			}
			out = append(out, line+" (one text: which of the two the client gave cannot be told)")
			continue
		}
		cell := partCell(c, p, "")
		line := p.Part + ": " + cell.Fate
		if cell.Detail != "" {
			line += " (" + cell.Detail + ")"
		}
		out = append(out, line)
	}
	return out
}

// sameAs is the part of parts that p has the same text as, nil for none.
func sameAs(parts []surface.Found, p surface.Found) *surface.Found {
	if p.SameAs == "" {
		return nil
	}
	for i := range parts {
		if parts[i].Part == p.SameAs {
			return &parts[i]
		}
	}
	return nil
}

// agreed gathers the lines of the runs of client c and row that ended
// ok and that lines takes (its bool): each line once, in the order first
// met, its last cell followed by "(N of M runs)" when some runs lack it.
func (g *grid) agreed(c, row string, lines func(*analyze.Result) ([][]string, bool)) [][]string {
	s := g.at(c, row)
	if s == nil {
		return nil
	}
	var out [][]string
	count := map[string]int{}
	runs := 0
	for _, r := range s.results {
		ls, ok := lines(r)
		if !ok || r.Status != analyze.StatusOK {
			continue
		}
		runs++
		for _, l := range ls {
			key := strings.Join(l, "\x00")
			if count[key] == 0 {
				out = append(out, l)
			}
			count[key]++
		}
	}
	for i, l := range out {
		if n := count[strings.Join(l, "\x00")]; n < runs {
			l = slices.Clone(l)
			l[len(l)-1] += fmt.Sprintf(" (%d of %d runs)", n, runs)
			out[i] = l
		}
	}
	return out
}
