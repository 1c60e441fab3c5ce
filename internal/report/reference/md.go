package reference

import (
	"bytes"
	"fmt"
	"html/template"
	"path"
	"strings"

	"github.com/instrlab/instrlab/internal/report"
	"github.com/instrlab/instrlab/internal/untrusted"
)

// A page is one page being written, as Markdown (docs/reference) or, for
// the site, as HTML in the report's page shell: the same calls make both.
// Every text it is given is escaped for its format by the one owner of
// that format (untrusted.Markdown and MarkdownLink; untrusted.HTMLLine,
// then html/template's escaping): a profile's note quotes what a client
// sent, and a profile may come from anyone's run. Its methods that return
// a string (text, cell, link, local) return it formatted, for list items
// and table cells; those that write (heading, para, block, list, table)
// take such strings.
type page struct {
	b    strings.Builder
	file string // its path under the output directory, as Markdown
	src  *Source

	// HTML only: the page's title, its finished sections, and the one
	// being written into b.
	title    string
	sections []report.Section
	section  report.Section
}

func newPage(src *Source, file, title string) *page {
	p := &page{file: file, src: src, title: title}
	if src.html {
		p.section = report.Section{ID: "overview", Title: "Overview"}
		return p
	}
	p.b.WriteString("# " + untrusted.Markdown(title) + "\n\n")
	p.b.WriteString("<!-- Generated from the built-in profiles and the atlas: do not edit (docs/reference/README.md says how to write it again). -->\n\n")
	return p
}

// bytes is the page, finished.
func (p *page) bytes() []byte {
	if !p.src.html {
		return []byte(p.b.String())
	}
	p.endSection()
	var b bytes.Buffer
	if err := report.WritePage(&b, report.Page{Title: p.title, Style: referenceStyle, Sections: p.sections}); err != nil {
		// The page's template is fixed and its values are strings and
		// HTML made here: it does not fail on data.
		panic(err)
	}
	return b.Bytes()
}

func (p *page) endSection() {
	p.section.Body = template.HTML(p.b.String())
	p.sections = append(p.sections, p.section)
	p.b.Reset()
}

// text is s escaped for the page's format.
func (p *page) text(s string) string {
	if p.src.html {
		return template.HTMLEscapeString(untrusted.HTMLLine(s))
	}
	return untrusted.Markdown(s)
}

// cell is a text as a table cell shows it: escaped, "—" when empty.
func (p *page) cell(s string) string {
	if s == "" {
		return "—"
	}
	return p.text(s)
}

// heading writes a heading of level 2 (a section of the site's page) or 3.
func (p *page) heading(level int, text string) {
	switch {
	case !p.src.html:
		p.b.WriteString(strings.Repeat("#", level) + " " + untrusted.Markdown(text) + "\n\n")
	case level == 2:
		p.endSection()
		p.section = report.Section{ID: fmt.Sprintf("s%d", len(p.sections)), Title: text}
	default:
		p.b.WriteString(fmt.Sprintf("<h%d>%s</h%d>\n", level, p.text(text), level))
	}
}

// para writes texts as one paragraph, each escaped, joined by a space.
func (p *page) para(texts ...string) {
	var parts []string
	for _, t := range texts {
		if t != "" {
			parts = append(parts, p.text(t))
		}
	}
	if len(parts) > 0 {
		p.block(strings.Join(parts, " "))
	}
}

// block writes a paragraph the page formatted itself (a link, escaped
// texts).
func (p *page) block(formatted string) {
	if p.src.html {
		p.b.WriteString("<p>" + formatted + "</p>\n")
		return
	}
	p.b.WriteString(formatted + "\n\n")
}

// list writes formatted items as a bulleted list.
func (p *page) list(items []string) {
	if len(items) == 0 {
		return
	}
	if p.src.html {
		p.b.WriteString("<ul>\n")
		for _, it := range items {
			p.b.WriteString("<li>" + it + "</li>\n")
		}
		p.b.WriteString("</ul>\n")
		return
	}
	for _, it := range items {
		p.b.WriteString("- " + it + "\n")
	}
	p.b.WriteString("\n")
}

// table writes a table of formatted cells; in HTML, in a box that scrolls
// sideways on a narrow screen instead of the page.
func (p *page) table(head []string, rows [][]string) {
	if p.src.html {
		p.b.WriteString(`<div class="scroll"><table class="full"><thead><tr>`)
		for _, h := range head {
			p.b.WriteString("<th>" + h + "</th>")
		}
		p.b.WriteString("</tr></thead><tbody>\n")
		for _, r := range rows {
			p.b.WriteString("<tr>")
			for _, c := range r {
				p.b.WriteString("<td>" + c + "</td>")
			}
			p.b.WriteString("</tr>\n")
		}
		p.b.WriteString("</tbody></table></div>\n")
		return
	}
	p.b.WriteString("| " + strings.Join(head, " | ") + " |\n|")
	for range head {
		p.b.WriteString("---|")
	}
	p.b.WriteString("\n")
	for _, r := range rows {
		p.b.WriteString("| " + strings.Join(r, " | ") + " |\n")
	}
	p.b.WriteString("\n")
}

// link is text linked to a file of the repository (a path from its
// root) or to a URL, from this page; the text alone where target is not
// a relative path or an https URL (untrusted.Href).
func (p *page) link(text, target string) string {
	if target == "" {
		return p.cell(text)
	}
	if !strings.HasPrefix(target, "https://") {
		target = p.repo(target)
	}
	return p.anchor(text, target)
}

func (p *page) anchor(text, target string) string {
	if !p.src.html {
		return untrusted.MarkdownLink(text, target)
	}
	h, ok := untrusted.Href(target)
	if !ok {
		return p.text(text)
	}
	return `<a href="` + template.HTMLEscapeString(h) + `">` + p.text(text) + "</a>"
}

// repo is the link from this page to a file of the repository.
func (p *page) repo(file string) string {
	base := p.src.Base
	if strings.HasPrefix(base, "https://") {
		return strings.TrimSuffix(base, "/") + "/" + file
	}
	up := strings.Repeat("../", strings.Count(p.file, "/"))
	return path.Clean(up + base + "/" + file)
}

// local is the link from this page to another page of the reference.
func (p *page) local(text, file string) string {
	up := strings.Repeat("../", strings.Count(p.file, "/"))
	return p.anchor(text, up+pageName(file, p.src.html))
}

// referenceStyle keeps a reference table's cells narrow enough to read,
// and long values (paths) wrapping.
const referenceStyle = `table.full td,table.full th{max-width:28em;min-width:7em;overflow-wrap:break-word}
section p,section li{max-width:60em;overflow-wrap:anywhere}`
