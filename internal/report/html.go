package report

import (
	"html/template"
	"io"
	"sync"
)

// htmlPage is a self-contained page: one table, a header row of client
// groups, differing cells marked. It is parsed on first use, not at every
// start of instrlab.
var htmlPage = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("page").Parse(htmlSource))
})

const htmlSource = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{{.Title}}</title>
<style>
body{font:14px/1.4 system-ui,sans-serif;margin:1.5em}
table{border-collapse:collapse}
th,td{border:1px solid #ccc;padding:.3em .5em;vertical-align:top;text-align:left}
th.group{background:#eef}
td.diff{background:#ffe08a;font-weight:600}
p.note{max-width:60em;color:#444}
</style></head><body>
<h1>{{.Title}}</h1>
<table>
<thead>
<tr><th rowspan="2">{{(index .Columns 0).Name}}</th>{{range .Groups}}<th class="group" colspan="{{.Span}}">{{.Name}}</th>{{end}}</tr>
<tr>{{range $i, $c := .Columns}}{{if $i}}<th>{{$c.Name}}</th>{{end}}{{end}}</tr>
</thead>
<tbody>
{{range .Rows}}<tr>{{range .}}<td{{if .Diff}} class="diff"{{end}}>{{.Text}}</td>{{end}}</tr>
{{end}}</tbody>
</table>
{{range .Notes}}<p class="note">{{.}}</p>
{{end}}</body></html>
`

type htmlGroup struct {
	Name string
	Span int
}

// HTML writes t as one self-contained HTML page.
func HTML(w io.Writer, t Table) error {
	var groups []htmlGroup
	for _, c := range t.Columns[1:] {
		if n := len(groups); n > 0 && groups[n-1].Name == c.Group {
			groups[n-1].Span++
			continue
		}
		groups = append(groups, htmlGroup{Name: c.Group, Span: 1})
	}
	return htmlPage().Execute(w, struct {
		Table
		Groups []htmlGroup
	}{t, groups})
}
