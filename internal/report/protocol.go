package report

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/instrlab/instrlab/internal/matrix"
	"github.com/instrlab/instrlab/internal/matrix/analyze"
	"github.com/instrlab/instrlab/internal/surface"
	"github.com/instrlab/instrlab/internal/table"
	"github.com/instrlab/instrlab/lab"
)

// protocolTable is the terminal's table of what each client did with
// what a server asked and announced while its tools ran (the protocol
// matrix, docs/protocol.md): per configuration and client, one line per
// fact. Runs that agree are one line; a line some runs lack says in how
// many it held.
func (g *grid) protocolTable() table.Table {
	t := table.Table{Title: "What the server asked and announced (protocol)", Columns: []table.Column{
		{Name: "configuration"}, {Name: "client"}, {Name: "what"}, {Name: "the client did"}}}
	for _, row := range g.rows {
		for _, c := range g.clients {
			for _, l := range g.agreed(c, row, func(r *analyze.Result) ([][]string, bool) {
				if r.Surface == nil || r.Surface.Protocol == nil && r.Row != matrix.ProtocolRow {
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
		t.Notes = []string{"declared: the capabilities of the client's initialize; the asks and notices were sent during tool calls; \"reached the model\" names the first model request whose body holds the text (evidence: lab.jsonl, api/requests.jsonl)."}
	}
	return t
}

// protocolLines are one run's facts, as (what, the client did) pairs; a
// run of the protocol row that called no tool says why.
func protocolLines(f *analyze.SurfaceFacts) [][]string {
	p := f.Protocol
	if p == nil {
		why := "no call made"
		if len(f.NotCalled) > 0 {
			why = "no call made: " + f.NotCalled[0].Why
		}
		return [][]string{{"tool calls", why}}
	}
	out := [][]string{{"declared", strings.Join(p.Declared, ", ")}}
	if p.Declared == nil {
		out[0][1] = "not measured (no initialize in the log)"
	} else if len(p.Declared) == 0 {
		out[0][1] = "no capability"
	}
	for _, mode := range []string{"form", "url"} {
		tool := "protocol_elicit_" + mode
		called := slices.ContainsFunc(f.Calls, func(c surface.CallFacts) bool { return c.Tool == tool && c.Reached })
		asked := slices.ContainsFunc(p.Asks, func(a surface.AskFact) bool { return a.Mode == mode })
		if called && !asked {
			out = append(out, []string{"elicitation " + mode, "none sent: the client declared no elicitation in " + mode + " mode"})
		}
	}
	asks := slices.Clone(p.Asks) // the order of the lab's tools, whatever order a client ran them in
	slices.SortStableFunc(asks, func(a, b surface.AskFact) int {
		return cmp.Or(cmp.Compare(askOrder(a), askOrder(b)), cmp.Compare(a.Mode, b.Mode))
	})
	for _, a := range asks {
		what, _, _ := strings.Cut(a.Summary(), ":")
		did := a.Answer
		switch {
		case a.Answer == surface.AskNoAnswer:
			did = fmt.Sprintf("no answer (the lab waits %v)", lab.AskTimeout)
		case a.Roots != nil:
			did = fmt.Sprintf("%s: %d roots", a.Answer, *a.Roots)
		case a.Content != "":
			did += " " + a.Content
		}
		if a.Model != 0 {
			did += fmt.Sprintf("; its text reached the model (request %d)", a.Model)
		}
		out = append(out, []string{what, did})
	}
	for _, m := range lab.NoticeMethods {
		k := slices.IndexFunc(p.Notices, func(n surface.Notice) bool { return n.Method == m })
		var did string
		switch {
		case k < 0 && m == "notifications/progress":
			did = "none sent: the call had no progress token"
		case k < 0:
			did = "none sent"
		case p.Notices[k].Model != 0:
			did = fmt.Sprintf("reached the model (request %d)", p.Notices[k].Model)
		default:
			did = "never reached the model"
		}
		what := "progress"
		if m == "notifications/message" {
			what = "log message"
			did += "; log level " + cmp.Or(p.LogLevel, "none set (the lab logged at "+lab.DefaultLogLevel+")")
		}
		out = append(out, []string{what, did})
	}
	if c := p.Changed; c != nil {
		did := "never listed the tools again"
		if c.Restarted {
			did += ": it started the server anew"
		}
		if c.Relisted {
			did = "listed the tools again"
			switch {
			case len(c.Added) == 0:
			case c.Offered == 0:
				did += "; the model never got " + c.Added[0]
			case c.Offered <= c.Result:
				did += fmt.Sprintf("; the model got %s with the call's result (request %d)", c.Added[0], c.Offered)
			default:
				did += fmt.Sprintf("; the model got %s from request %d, after the call's result (request %d)", c.Added[0], c.Offered, c.Result)
			}
		}
		out = append(out, []string{"tools/list_changed", did})
	}
	for _, d := range f.Tools {
		switch {
		case d.Tool == lab.ProtocolAppOnly && d.Via == surface.ViaNone:
			out = append(out, []string{"app-only tool", "not offered to the model"})
		case d.Tool == lab.ProtocolAppOnly:
			out = append(out, []string{"app-only tool", "offered to the model"})
		case d.Tool == lab.ProtocolHeader && d.Via != surface.ViaNone:
			// Properties the client kept whole are one fact, "kept".
			fate := surface.Kept
			for _, k := range d.Keywords {
				if k.Keyword == lab.KeywordHeader {
					fate = k.Fate
				}
			}
			out = append(out, []string{lab.KeywordHeader, fate + " in the schema the model got"})
		}
	}
	return out
}

// askOrder orders asks as the lab's tools are: elicitation, sampling,
// roots.
func askOrder(a surface.AskFact) int { return slices.Index(lab.AskMethods, a.Method) }
