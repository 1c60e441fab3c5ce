package report

import (
	"github.com/instrlab/instrlab/internal/matrix"
	"github.com/instrlab/instrlab/internal/matrix/analyze"
	"github.com/instrlab/instrlab/internal/surface"
	"github.com/instrlab/instrlab/internal/table"
)

// protocolTable is the terminal's table of what each client did with
// what a server asked and announced while its tools ran (the protocol
// matrix, docs/protocol.md): per row and client, one line per
// fact. Runs that agree are one line; a line some runs lack says in how
// many it held.
func (g *grid) protocolTable() table.Table {
	t := table.Table{Title: "What the server asked and announced (protocol)", Columns: []table.Column{
		{Name: "row"}, {Name: "client"}, {Name: "what"}, {Name: "what the client does"}}}
	for _, row := range g.rows {
		for _, c := range g.clients {
			for _, l := range g.agreed(c, row, func(r *analyze.Result) ([][]string, bool) {
				if r.Surface == nil || r.Surface.Protocol == nil && r.Row != matrix.ProtocolRow && r.Row != matrix.ProtocolModernRow {
					return nil, false
				}
				return protocolLines(r.Surface), true
			}) {
				t.Rows = append(t.Rows, []table.Cell{{Text: row}, {Text: c}, {Text: l[0]}, {Text: l[1]}})
			}
		}
	}
	if len(g.rows) == 1 {
		t.Columns = t.Columns[1:]
		for i := range t.Rows {
			t.Rows[i] = t.Rows[i][1:]
		}
	}
	if len(t.Rows) > 0 {
		t.Notes = []string{"declared: the capabilities of the client's initialize; the asks and notices were sent during tool calls; \"reaches the model\": a model request's body holds the text (in brackets, the first; evidence: lab.jsonl, api/requests.jsonl)."}
	}
	return t
}

// protocolLines are one run's facts (surface.ProtocolLines), each with
// what this run adds.
func protocolLines(f *analyze.SurfaceFacts) [][]string {
	var out [][]string
	for _, l := range surface.ProtocolLines(f.Protocol, f.Calls, f.Tools, f.NotCalled) {
		does := l.Does
		if l.Detail != "" {
			does += " (" + l.Detail + ")"
		}
		out = append(out, []string{l.Feature, does})
	}
	return out
}
