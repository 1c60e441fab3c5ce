package report

import (
	"bytes"
	"html/template"
	"io"
	"sync"

	"github.com/instrlab/instrlab/internal/table"
)

// A Page is the HTML report: sections in order, each a heading and a
// body rendered on its own, so that other views (a timeline) add a
// section without touching the others.
type Page struct {
	Title string
	// Lead is a paragraph under the title; Style, rules a view adds to
	// the page's own for its figures.
	Lead     string
	Style    template.CSS
	Sections []Section
}

// A Section is one part of a Page. Body is HTML made by html/template
// (every text in it escaped).
type Section struct {
	ID    string
	Title string
	Body  template.HTML
}

// Page builds the report's page: the summary, then per row
// what each client did, the surface grids of a run that measured them,
// then the full tables.
func (r *Report) Page() (Page, error) {
	p := Page{Title: r.Table.Title}
	builders := []func() (Section, error){r.summarySection, r.configSections, r.surfaceSection, r.tablesSection}
	for _, b := range builders {
		s, err := b()
		if err != nil {
			return Page{}, err
		}
		if s.Body != "" {
			p.Sections = append(p.Sections, s)
		}
		if s.ID == "surface" && s.Body != "" {
			p.Style += surfaceStyle
		}
	}
	return p, nil
}

// HTML writes the report's page.
func (r *Report) HTML(w io.Writer) error {
	p, err := r.Page()
	if err != nil {
		return err
	}
	return WritePage(w, p)
}

// WritePage writes p as one self-contained HTML document: styles inline,
// no scripts, fonts or images from anywhere.
func WritePage(w io.Writer, p Page) error {
	return pageTemplate().Execute(w, p)
}

var pageTemplate = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("page").Parse(pageSource))
})

// render executes a section template into HTML.
func render(t *template.Template, v any) (template.HTML, error) {
	var b bytes.Buffer
	if err := t.Execute(&b, v); err != nil {
		return "", err
	}
	return template.HTML(b.String()), nil
}

func (r *Report) tablesSection() (Section, error) {
	var b bytes.Buffer
	if err := table.HTML(&b, r.Table); err != nil {
		return Section{}, err
	}
	return Section{ID: "tables", Title: "Full table", Body: template.HTML(`<div class="scroll">` + b.String() + `</div>`)}, nil
}
