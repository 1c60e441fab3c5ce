package report

import (
	"fmt"
	"html/template"
	"sort"
	"strings"
	"sync"

	"github.com/instrlab/instrlab/internal/fakeapi"
	"github.com/instrlab/instrlab/internal/surface"
	"github.com/instrlab/instrlab/internal/table"
	"github.com/instrlab/instrlab/internal/unit"
	"github.com/instrlab/instrlab/internal/untrusted"
)

// The fates of a surface grid's cell: what a client did with one part of
// what a server sent (docs/surface.md).
const (
	fateKept        = "kept"
	fateRewritten   = "rewritten"
	fateDropped     = "dropped"
	fateNotMeasured = "not measured"
)

// A surfaceGrid is one surface (result parts, schema keywords, names) as
// a grid: a row per item, a column per client, each cell a fate linked to
// the run that shows it.
type surfaceGrid struct {
	ID, Title, Lead string
	Clients         []string
	Rows            []surfaceRow
}

type surfaceRow struct {
	Label string
	Cells []surfaceCell
}

// A surfaceCell is one item on one client: its fate, what it became (the
// form, the client's name, the rewritten schema) and the evidence.
type surfaceCell struct {
	Fate   string
	Detail string
	Link   string
}

// Class is the cell's CSS class: its fate without spaces.
func (c surfaceCell) Class() string { return "f-" + strings.ReplaceAll(c.Fate, " ", "-") }

// surfaceItems collects one surface's cells: per client, item → cell, and
// the items in the order first seen. add is called for every result
// with surface facts, in the grid's row order.
type surfaceItems struct {
	order []string
	cells map[string]map[string]surfaceCell // client → item → cell
}

func (s *surfaceItems) put(client, item string, c surfaceCell) {
	if s.cells == nil {
		s.cells = map[string]map[string]surfaceCell{}
	}
	if s.cells[client] == nil {
		s.cells[client] = map[string]surfaceCell{}
	}
	if _, seen := s.cells[client][item]; seen {
		return // the first run that measured it (rows in matrix order)
	}
	if !contains(s.order, item) {
		s.order = append(s.order, item)
	}
	s.cells[client][item] = c
}

// grid makes the surface's grid over clients; an item a client has no
// cell for is not measured.
func (s *surfaceItems) grid(id, title, lead string, clients []string, sorted bool) surfaceGrid {
	g := surfaceGrid{ID: id, Title: title, Lead: lead}
	for _, c := range clients {
		if len(s.cells[c]) > 0 {
			g.Clients = append(g.Clients, c)
		}
	}
	items := s.order
	if sorted {
		items = append([]string(nil), items...)
		sort.Strings(items)
	}
	for _, item := range items {
		row := surfaceRow{Label: item}
		for _, c := range g.Clients {
			cell, ok := s.cells[c][item]
			if !ok {
				cell = surfaceCell{Fate: fateNotMeasured}
			}
			row.Cells = append(row.Cells, cell)
		}
		g.Rows = append(g.Rows, row)
	}
	return g
}

// surfaceGrids are the page's three surfaces, from every result with
// surface facts: what became of each part of each tool result, of each
// keyword of the input schemas, and of each tool's name.
func (g *grid) surfaceGrids() []surfaceGrid {
	var parts, keywords, names, texts surfaceItems
	listOf := map[string]string{}             // a text's item → its list
	unasked := map[string]map[string]string{} // client → list → link
	for _, row := range g.rows {
		for _, c := range g.clients {
			s := g.at(c, row)
			if s == nil {
				continue
			}
			for _, r := range s.results {
				if r.Surface == nil {
					continue
				}
				link := g.link(r, fileRequests)
				for _, call := range r.Surface.Calls {
					for _, p := range call.Parts {
						parts.put(c, call.Tool+" · "+p.Part, partCell(call, p, link))
					}
					if call.Following == 0 || !call.Reached {
						parts.put(c, call.Tool, callCell(call, link))
					}
				}
				for _, m := range r.Surface.NotCalled {
					parts.put(c, m.Tool, surfaceCell{Fate: fateNotMeasured, Detail: "did not call: " + m.Why, Link: link})
				}
				for _, t := range r.Surface.Texts {
					texts.put(c, textItem(t), textCell(t, link))
					listOf[textItem(t)] = t.List
				}
				for _, rd := range r.Surface.Reads {
					texts.put(c, "read "+rd.URI+" · "+rd.Part, readCell(rd, link))
				}
				for _, l := range r.Surface.Unasked {
					if unasked[c] == nil {
						unasked[c] = map[string]string{}
					}
					unasked[c][l] = link
				}
				for _, t := range r.Surface.Tools {
					names.put(c, t.Tool, nameCell(t, link))
					if t.Via == surface.ViaNone {
						continue
					}
					for _, k := range t.Keywords {
						keywords.put(c, keywordItem(t.Tool, k), keywordCell(k, link))
					}
					if t.Output != surface.NoOutput {
						keywords.put(c, t.Tool+" · outputSchema", outputCell(t, link))
					}
				}
			}
		}
	}
	for c, lists := range unasked { // a client that never asked for a list had none of its texts
		for _, item := range texts.order {
			if link, ok := lists[listOf[item]]; ok {
				texts.put(c, item, surfaceCell{Fate: fateDropped, Detail: "the client never asked for " + listOf[item], Link: link})
			}
		}
	}
	var out []surfaceGrid
	for _, sg := range []surfaceGrid{
		parts.grid("surface-results", "Tool results: each part of each result",
			"Each part of a tool's result as the server sent it, in the request that followed the call: kept (whole, in its form, in the call's result), rewritten (another form, cut, or elsewhere in the request), dropped (in no part of it), or not measured (the call was not made or not answered). Each cell links to the run's recorded requests.",
			g.clients, false),
		keywords.grid("surface-schemas", "Input schemas: each keyword of each tool",
			"Each keyword of each tool's input schema as the server listed it, against the definition the client sent: kept, rewritten (the client's form shown), dropped, or added by the client; not measured when the client sent no definition of the tool.",
			g.clients, false),
		names.grid("surface-names", "Tool names",
			"The name each client gave each tool in its definition: kept (the server's name, alone or behind the client's prefix or in its namespace, shown), rewritten (another name, shown); not measured when no request defined the tool (not offered, or a deferred tool the run did not load).",
			g.clients, true),
		texts.grid("surface-texts", "Prompts, resources, tool titles and metadata",
			"Each text the server listed beside its instructions and tool descriptions (a prompt's, resource's or template's name, URI, title, descriptions; a tool's title, annotations title, _meta strings, icon), looked for in the first main request: kept (there whole, where shown), rewritten (cut, or only in a later request), dropped (in no request). A resource the client read for the model (its own resource tool) is looked for in every request: kept when whole.",
			g.clients, false),
	} {
		if len(sg.Clients) > 0 && len(sg.Rows) > 0 {
			out = append(out, sg)
		}
	}
	return out
}

// partCell is what became of one part of a call's result.
func partCell(call surface.CallFacts, p surface.Found, link string) surfaceCell {
	switch {
	case call.Following == 0:
		return surfaceCell{Fate: fateNotMeasured, Detail: "no request followed the call", Link: link}
	case !p.Reached:
		return surfaceCell{Fate: fateDropped, Link: link}
	}
	var how []string
	if p.Form != p.SentForm {
		how = append(how, "as "+p.Form)
	}
	if !p.Full {
		how = append(how, fmt.Sprintf("cut: %d of %d characters", p.Kept, p.Sent))
	}
	if !p.InResult {
		how = append(how, "in "+string(p.Where))
	}
	same := ""
	if p.SameAs != "" {
		same = "; the same text as " + p.SameAs + ": which the client gave cannot be told"
	}
	if len(how) == 0 {
		return surfaceCell{Fate: fateKept, Detail: p.Form + same, Link: link}
	}
	how[len(how)-1] += same
	return surfaceCell{Fate: fateRewritten, Detail: strings.Join(how, ", "), Link: link}
}

// callCell is a call that measured no part: the server did not get it, or
// no request carried its result.
func callCell(call surface.CallFacts, link string) surfaceCell {
	switch {
	case call.Fate() == surface.FateRefused && call.Instead != "":
		return surfaceCell{Fate: fateNotMeasured, Detail: "refused: the call did not reach the server; the model got instead " + table.Quote(call.Instead, 120), Link: link}
	case call.Fate() == surface.FateRefused:
		return surfaceCell{Fate: fateNotMeasured, Detail: "refused: the call did not reach the server; the model got an empty result instead", Link: link}
	case !call.Reached:
		return surfaceCell{Fate: fateNotMeasured, Detail: "the call did not reach the server, and no request carried a result for it (the run ended first)", Link: link}
	}
	return surfaceCell{Fate: fateNotMeasured, Detail: "no request carried its result", Link: link}
}

// readCell is what became of a resource's text the client read (its own
// resource tool): where the first request that held it had it.
func readCell(r surface.ReadFact, link string) surfaceCell {
	switch {
	case !r.Reached:
		return surfaceCell{Fate: fateDropped, Detail: "read, in no request", Link: link}
	case !r.Full:
		return surfaceCell{Fate: fateRewritten, Detail: fmt.Sprintf("cut: %d of %d characters, in %s of request %d", r.Kept, r.Sent, r.Where, r.Request), Link: link}
	}
	return surfaceCell{Fate: fateKept, Detail: fmt.Sprintf("in %s of request %d", r.Where, r.Request), Link: link}
}

// textItem names a text of a list: its kind, its item, which text.
func textItem(t surface.TextFact) string {
	kind := map[string]string{surface.ListPrompts: "prompt", surface.ListResources: "resource",
		surface.ListTemplates: "template", surface.ListTools: "tool"}[t.List]
	return kind + " " + t.Item + " · " + t.Part
}

// textCell is what became of one listed text: where it was in the first
// main request, or the later request that first carried it.
func textCell(t surface.TextFact, link string) surfaceCell {
	switch {
	case !t.Reached && t.Undefined:
		return surfaceCell{Fate: fateNotMeasured, Detail: "no request defines the tool", Link: link}
	case !t.Reached:
		return surfaceCell{Fate: fateDropped, Link: link}
	case !t.First:
		return surfaceCell{Fate: fateRewritten, Detail: fmt.Sprintf("only from request %d, in %s", t.Request, t.Where), Link: link}
	case !t.Full:
		return surfaceCell{Fate: fateRewritten, Detail: fmt.Sprintf("cut: %d of %d characters, in %s", t.Kept, t.Sent, t.Where), Link: link}
	}
	return surfaceCell{Fate: fateKept, Detail: "in " + string(t.Where), Link: link}
}

// keywordItem names a keyword of a tool's schema: the tool, the path in
// its schema, the keyword.
func keywordItem(tool string, k surface.KeywordFact) string {
	return tool + " · " + strings.TrimPrefix(k.Path+"/", "/") + k.Keyword
}

func keywordCell(k surface.KeywordFact, link string) surfaceCell {
	switch k.Fate {
	case surface.Kept:
		return surfaceCell{Fate: fateKept, Link: link}
	case surface.Dropped:
		return surfaceCell{Fate: fateDropped, Detail: clip(k.Sent), Link: link}
	case surface.Added:
		return surfaceCell{Fate: "added", Detail: clip(k.Became), Link: link}
	}
	return surfaceCell{Fate: fateRewritten, Detail: clip(k.Sent) + " → " + clip(k.Became), Link: link}
}

func outputCell(t surface.ToolDef, link string) surfaceCell {
	switch t.Output {
	case surface.OutSent:
		return surfaceCell{Fate: fateKept, Detail: "in the definition", Link: link}
	case surface.OutInText:
		return surfaceCell{Fate: fateRewritten, Detail: "in a text of the request", Link: link}
	case surface.OutLost:
		return surfaceCell{Fate: fateDropped, Link: link}
	}
	return surfaceCell{Fate: fateNotMeasured, Link: link}
}

func nameCell(t surface.ToolDef, link string) surfaceCell {
	if t.Via == surface.ViaNone {
		// Never defined: not offered, or deferred and never loaded (a
		// deferred list may name it, renamed); either way unmeasured.
		return surfaceCell{Fate: fateNotMeasured, Detail: "no request defines it", Link: link}
	}
	name := t.Name
	if t.Namespace != "" {
		name = t.Namespace + " · " + t.Name
	}
	if fakeapi.ToolNamed(t.Name, t.Tool) {
		return surfaceCell{Fate: fateKept, Detail: name, Link: link}
	}
	return surfaceCell{Fate: fateRewritten, Detail: fmt.Sprintf("%s (%d characters)", name, t.NameLen), Link: link}
}

// clip keeps a schema value short enough for a cell.
func clip(s string) string { return unit.CodePoint.Clip(s, 80) }

var surfaceTemplate = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("surface").Funcs(pageFuncs).Parse(surfaceSource))
})

const surfaceSource = `{{range .}}<section class="surface" id="{{.ID}}">
<h3>{{.Title}}</h3>
<p class="lead">{{.Lead}}</p>
<div class="scroll"><table class="surface">
<thead><tr><th scope="col">{{if eq .ID "surface-names"}}tool{{else if eq .ID "surface-texts"}}item · text{{else}}tool · part{{end}}</th>{{range .Clients}}<th scope="col">{{.}}</th>{{end}}</tr></thead>
<tbody>
{{range .Rows}}<tr><th scope="row">{{.Label}}</th>{{range .Cells}}<td class="{{.Class}}">{{if .Link}}<a href="{{.Link}}">{{.Fate}}</a>{{else}}{{.Fate}}{{end}}{{with .Detail}}<small>{{.}}</small>{{end}}</td>{{end}}</tr>
{{end}}</tbody>
</table></div>
</section>
{{end}}`

// surfaceStyle colours a surface grid's cells by fate; the fate is also
// written in every cell.
const surfaceStyle = `table.surface{border-collapse:collapse;font-size:12px}
table.surface th,table.surface td{border:1px solid var(--line);padding:.2em .4em;vertical-align:top;text-align:left;max-width:22em;overflow-wrap:anywhere}
table.surface td small{display:block;color:var(--muted)}
td.f-kept{background:#ebf8ff}
td.f-rewritten{background:#fefcbf}
td.f-dropped{background:#fff5f5;font-weight:600}
td.f-added{background:#faf5ff}
td.f-not-measured{color:var(--muted);font-style:italic}`

// surfaceSection is the page's section of the surface grids; empty when
// no result has surface facts.
func (r *Report) surfaceSection() (Section, error) {
	grids := r.g.surfaceGrids()
	if len(grids) == 0 {
		return Section{}, nil
	}
	for i := range grids {
		for j := range grids[i].Rows {
			grids[i].Rows[j].Label = untrusted.HTMLLine(grids[i].Rows[j].Label)
			for k := range grids[i].Rows[j].Cells {
				grids[i].Rows[j].Cells[k].Detail = untrusted.HTMLLine(grids[i].Rows[j].Cells[k].Detail)
			}
		}
	}
	body, err := render(surfaceTemplate(), grids)
	return Section{ID: "surface", Title: "The surface: results, schemas, names, texts", Body: body}, err
}
