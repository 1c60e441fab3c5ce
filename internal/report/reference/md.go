package reference

import (
	"path"
	"strings"

	"github.com/instrlab/instrlab/internal/untrusted"
)

// A page is one Markdown page being written. Every text it is given is
// escaped by untrusted.Markdown (a profile's note quotes what a client
// sent, and a profile may come from anyone's run); only the page's own
// marks are written raw.
type page struct {
	b    strings.Builder
	file string // its path under the output directory
	src  *Source
}

func newPage(src *Source, file, title string) *page {
	p := &page{file: file, src: src}
	p.b.WriteString("# " + untrusted.Markdown(title) + "\n\n")
	p.b.WriteString("<!-- Generated from the built-in profiles and the atlas: do not edit (docs/reference/README.md says how to write it again). -->\n\n")
	return p
}

func (p *page) bytes() []byte { return []byte(p.b.String()) }

// heading writes a heading of level 2 or 3.
func (p *page) heading(level int, text string) {
	p.b.WriteString(strings.Repeat("#", level) + " " + untrusted.Markdown(text) + "\n\n")
}

// para writes texts as one paragraph, each escaped, joined by a space.
func (p *page) para(texts ...string) {
	var parts []string
	for _, t := range texts {
		if t != "" {
			parts = append(parts, untrusted.Markdown(t))
		}
	}
	if len(parts) > 0 {
		p.b.WriteString(strings.Join(parts, " ") + "\n\n")
	}
}

// raw writes Markdown the page made itself (links built by link, escaped
// texts), as a paragraph.
func (p *page) raw(md string) { p.b.WriteString(md + "\n\n") }

// list writes items (each already Markdown) as a bulleted list.
func (p *page) list(items []string) {
	for _, it := range items {
		p.b.WriteString("- " + it + "\n")
	}
	if len(items) > 0 {
		p.b.WriteString("\n")
	}
}

// table writes a table; head and every cell are already Markdown (cell
// and link escape them).
func (p *page) table(head []string, rows [][]string) {
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

// cell is a text as a table cell shows it: escaped, "—" when empty.
func cell(s string) string {
	if s == "" {
		return "—"
	}
	return untrusted.Markdown(s)
}

// link is text linked to a file of the repository (a path from its
// root) or to a URL, from this page.
func (p *page) link(text, target string) string {
	if target == "" {
		return cell(text)
	}
	if !strings.HasPrefix(target, "https://") {
		target = p.repo(target)
	}
	return untrusted.MarkdownLink(text, target)
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
	return untrusted.MarkdownLink(text, up+pageName(file, p.src.html))
}
