package table

import (
	"html/template"
	"io"
	"sync"

	"github.com/instrlab/instrlab/internal/untrusted"
)

// htmlTable is the fragment HTML writes; parsed on first use.
var htmlTable = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("table").Parse(htmlSource))
})

// The first header row names the groups (when there are any); a link
// opens the cell's evidence file; differing cells carry the class diff
// and a "≠" so that colour is not the only sign.
const htmlSource = `<table class="full">
{{- if .Title}}<caption>{{.Title}}</caption>{{end}}
<thead>
{{- if .Groups}}
<tr>{{range .Lead}}<th rowspan="2" scope="col">{{.Name}}</th>{{end}}{{range .Groups}}<th class="group" scope="colgroup" colspan="{{.Span}}">{{.Name}}</th>{{end}}</tr>
<tr>{{range .Grouped}}<th scope="col">{{.Name}}</th>{{end}}</tr>
{{- else}}
<tr>{{range .Columns}}<th scope="col">{{.Name}}</th>{{end}}</tr>
{{- end}}
</thead>
<tbody>
{{range .Rows}}<tr>{{range $i, $c := .}}{{if eq $i 0}}<th scope="row">{{else}}<td{{if $c.Diff}} class="diff"{{else if $c.Strong}} class="strong"{{end}}>{{end}}{{if $c.Link}}<a href="{{$c.Link}}">{{$c.Text}}</a>{{else}}{{$c.Text}}{{end}}{{if $c.Diff}} <span class="mark" title="differs from the first client">≠</span>{{else if $c.Strong}} <span class="mark" title="needs attention">!</span>{{end}}{{if eq $i 0}}</th>{{else}}</td>{{end}}{{end}}</tr>
{{end}}</tbody>
</table>
{{range .Notes}}<p class="note">{{.}}</p>
{{end}}`

type htmlGroup struct {
	Name string
	Span int
}

// HTML writes t as an HTML table fragment (no page around it): a caption,
// a header row of groups over a header row of columns when t has groups,
// rows whose first cell is their header, linked cells, and the notes as
// paragraphs. Every text goes through untrusted.HTMLLine (control and
// invisible characters shown as escapes) and html/template escapes its
// markup.
func HTML(w io.Writer, t Table) error {
	t = shownHTML(t)
	v := struct {
		Table
		Lead, Grouped []Column
		Groups        []htmlGroup
	}{Table: t}
	for _, c := range t.Columns {
		if c.Group == "" {
			v.Lead = append(v.Lead, c)
			continue
		}
		v.Grouped = append(v.Grouped, c)
		if n := len(v.Groups); n > 0 && v.Groups[n-1].Name == c.Group {
			v.Groups[n-1].Span++
			continue
		}
		v.Groups = append(v.Groups, htmlGroup{Name: c.Group, Span: 1})
	}
	return htmlTable().Execute(w, v)
}

// shownHTML returns a copy of t with every text as untrusted.HTMLLine
// shows it.
func shownHTML(t Table) Table {
	t.Title = untrusted.HTMLLine(t.Title)
	t.Columns = append([]Column(nil), t.Columns...)
	for i, c := range t.Columns {
		t.Columns[i] = Column{Group: untrusted.HTMLLine(c.Group), Name: untrusted.HTMLLine(c.Name)}
	}
	rows := make([][]Cell, len(t.Rows))
	for i, row := range t.Rows {
		rows[i] = make([]Cell, len(row))
		for j, c := range row {
			c.Text = untrusted.HTMLLine(c.Text)
			rows[i][j] = c
		}
	}
	t.Rows = rows
	t.Notes = append([]string(nil), t.Notes...)
	for i, n := range t.Notes {
		t.Notes[i] = untrusted.HTMLLine(n)
	}
	return t
}
