package assess

import (
	"slices"
	"strings"

	"github.com/instrlab/instrlab/internal/table"
	"github.com/instrlab/instrlab/internal/unit"
)

// A clientLine is a line of a server's table of clients: a client
// version (its profile's own view), or the ways of running it that
// change something for this server, with what they do.
type clientLine struct {
	client                  string
	era, kept, where, tools string
	// folded counts the ways that change nothing, said on the client's
	// line.
	folded int
}

// Clients is the server's table of clients: a line per client version,
// for its profile's own view (era used, what it keeps of the text in the
// unit it counts, where the text goes, what becomes of the tools), then
// a line per group of its other ways (arms, models, flags) that change
// one of these, named by their ways; the ways that change none are
// folded into the client's line. When every client was sent a text of
// the same length, the column's heading says it ("kept of 5,000") and
// the cells do not.
func Clients(s Server) table.Table {
	n, same := sameLength(s.Views)
	kept := "kept"
	if same {
		kept = "kept of " + table.Num(n)
	}
	t := table.Table{Columns: []table.Column{{Name: "client"}, {Name: "era"}, {Name: kept}, {Name: "where"}, {Name: "tools"}}}
	folded, indented := false, false
	for _, l := range clientLines(s, same) {
		folded = folded || l.folded > 0
		indented = indented || strings.HasPrefix(l.client, " ")
		t.Rows = append(t.Rows, []table.Cell{{Text: l.client}, {Text: l.era}, {Text: l.kept}, {Text: l.where}, {Text: l.tools}})
	}
	note := "kept: of the instructions, in characters (Unicode code points) unless the client counts another unit, named; tools: their descriptions, or what the model sees instead."
	if indented {
		note += " Indented: the client's other arms (approval modes, models, flags), where they change something for this server."
	}
	if folded {
		note += " Arms not listed do here what their client's line says (-v shows each)."
	}
	t.Notes = []string{note}
	return t
}

// sameLength reports whether every view that got a text got one of the
// same length in characters, and that length.
func sameLength(vs []View) (n int, same bool) {
	for _, v := range vs {
		if v.Era == "" || !v.Present {
			continue
		}
		if same && v.Chars != n {
			return 0, false
		}
		n, same = v.Chars, true
	}
	return n, same
}

// viewGroups are the views of each client version (profile and client),
// in the order of their first view: pointers into vs, as a View is large.
func viewGroups(vs []View) [][]*View {
	var groups [][]*View
	for i := range vs {
		v := &vs[i]
		j := slices.IndexFunc(groups, func(g []*View) bool { return g[0].Profile == v.Profile && g[0].Client == v.Client })
		if j < 0 {
			groups = append(groups, nil)
			j = len(groups) - 1
		}
		groups[j] = append(groups[j], v)
	}
	return groups
}

func clientLines(s Server, same bool) []clientLine {
	var out []clientLine
	for _, g := range viewGroups(s.Views) {
		head := cellsOf(s, *g[0], same)
		head.client = g[0].Client
		var others []clientLine
		var ways [][]string
		for _, v := range g[1:] {
			c := cellsOf(s, *v, same)
			if c == head.cells() {
				head.folded++
				continue
			}
			i := slices.IndexFunc(others, func(o clientLine) bool { return o.cells() == c })
			if i < 0 {
				others = append(others, c)
				ways = append(ways, nil)
				i = len(others) - 1
			}
			ways[i] = append(ways[i], v.Way)
		}
		out = append(out, head)
		u := waysOf(s.Views, g[0].Profile, g[0].Client)
		for i, o := range others {
			o.client = "  " + waysSummary(ways[i], u)
			out = append(out, o)
		}
	}
	return out
}

// cells is the line without its client: what tells two ways apart.
func (l clientLine) cells() clientLine {
	return clientLine{era: l.era, kept: l.kept, where: l.where, tools: l.tools}
}

// cellsOf says what view v predicts, in a few words a column; same says
// the heading gives the text's length.
func cellsOf(s Server, v View, same bool) clientLine {
	l := clientLine{era: string(v.Era), kept: "—", where: "—", tools: toolsCell(s, v)}
	switch {
	case v.NotMeasured:
		l.era, l.where = NotMeasured, "HTTP "+NotMeasured
	case v.Era == "":
		l.era = "none"
	case !v.Present:
		l.kept = "no text"
	case v.Unused:
		l.kept, l.where = "none", "nowhere"
		if !same {
			l.kept += " of " + table.Num(v.Chars)
		}
	default:
		l.kept, l.where = keptCell(v, same), v.Where
	}
	return l
}

// keptCell is what the client keeps in the unit it counts, named when it
// is not characters: "2,048 UTF-16", "247", "all", with the text's
// length in that unit when the heading does not say it ("247 of 5,000",
// "2,048 of 5,210 UTF-16"), and how far a cap was measured when none was
// seen. A text kept whole is "all", in whatever unit.
func keptCell(v View, same bool) string {
	name := ""
	if u, err := unit.Parse(v.CapUnit); err == nil && u != unit.CodePoint {
		name = " " + unitName(u)
	}
	of := ""
	if !same || v.Units != v.Chars {
		of = " of " + table.Num(v.Units)
	}
	if v.Truncated {
		return table.Num(v.KeptUnits) + of + name
	}
	s := "all"
	if !same {
		s += " of " + table.Num(v.Units) + name
	}
	switch {
	case v.Cap == 0 && v.AtLeast > 0 && v.AtLeast < v.Chars:
		s += " (measured to " + table.Num(v.AtLeast) + ")"
	case v.Cap == 0 && v.AtLeast == 0 && !v.CapMeasured:
		s += " (cap " + NotMeasured + ")"
	}
	return s
}

// unitName is a unit in a word, for a table.
func unitName(u unit.Unit) string {
	if u == unit.UTF16 {
		return "UTF-16"
	}
	return string(u) + "s"
}

// toolsCell says what becomes of the server's tools under v: "3 whole",
// "2 of 13 cut", "names only" (descriptions not sent), "not measured".
func toolsCell(s Server, v View) string {
	n := len(eraOf(s, v.Era).Tools)
	switch {
	case v.Era == "":
		return "—"
	case n == 0:
		return "no tools"
	case len(v.Tools) == 0:
		return NotMeasured
	case v.Tools[0].Unsent:
		switch v.ToolsVia {
		case "name only":
			return "names only"
		case "server namespace":
			return "server only"
		}
		return "not named"
	}
	cut, beyond := 0, 0
	for _, t := range v.Tools {
		switch {
		case t.Truncated:
			cut++
		case t.Beyond:
			beyond++
		}
	}
	switch {
	case cut > 0:
		return table.Num(cut) + " of " + table.Num(n) + " cut"
	case beyond > 0:
		return table.Num(n) + " whole (" + table.Num(beyond) + " past measured)"
	}
	return table.Num(n) + " whole"
}

// clients writes the server's table of clients.
func (p *printer) clients(s Server) {
	if len(s.Views) == 0 || !s.Reached {
		return
	}
	p.b.WriteString("\n")
	table.TextWidth(&p.b, Clients(s), p.width) // a strings.Builder does not fail
}
