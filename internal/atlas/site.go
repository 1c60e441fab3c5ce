package atlas

import (
	"bytes"
	"fmt"
	"html/template"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/instrlab/instrlab/internal/report"
	"github.com/instrlab/instrlab/internal/untrusted"
)

// Site writes the atlas as a static site into dir (created if missing),
// every page self-contained as the report's page is (styles inline, no
// script, nothing fetched from elsewhere):
//
//	index.html         every client at its newest segment: the versions it
//	                   spans and each property's value, linked to its evidence,
//	                   with the client's badge
//	CLIENT.html        per client: its timeline, its changes and the versions
//	                   that could not run (the section of Atlas.HTML)
//	atlas.json         the atlas (Atlas.JSON)
//	capabilities.json  a record per client and version range in the
//	                   community client-capabilities list's shape
//	                   (Atlas.Capabilities), its handshakes read from
//	                   the evidence as linked from dir
//	badges/CLIENT.svg  per client: its newest version and cap, as a badge
//
// Evidence links are the atlas's own paths: Rebase the atlas first so they
// are relative to dir. A client whose name cannot be a file name is an
// error, and nothing of the site is written.
func (a *Atlas) Site(dir string, o SiteOptions) error {
	caps, capsErr := a.Capabilities(dir, o.Display)
	if capsErr != nil {
		return fmt.Errorf("atlas site: %w", capsErr)
	}
	caps.observe(o.Observed)
	if o.Link != "" {
		to, outside, err := publishedAt(dir, o.Link)
		if err != nil {
			return err
		}
		a.mapEvidence(to)
		caps.mapEvidence(to)
		if err := outside(); err != nil {
			return err
		}
	}
	files := map[string][]byte{}
	var rows []siteRow
	for _, t := range a.Timelines {
		if !fileName(t.Client) {
			return fmt.Errorf("atlas site: client %q cannot name a page", t.Client)
		}
		body, err := renderClient(newClientView(a.Properties, t))
		if err != nil {
			return err
		}
		var page bytes.Buffer
		err = report.WritePage(&page, report.Page{
			Title:    "Atlas: " + t.Client,
			Lead:     "What " + t.Client + " does with an MCP server's instructions, version by version, read from the recorded evidence of offline runs.",
			Style:    atlasStyle,
			Sections: []report.Section{{ID: "client-" + show(t.Client), Title: show(t.Client), Body: `<p><a href="index.html">All clients</a></p>` + body}},
		})
		if err != nil {
			return err
		}
		files[t.Client+".html"] = page.Bytes()
		row := newSiteRow(a.Properties, t)
		files[filepath.Join("badges", t.Client+".svg")] = []byte(badge(row.Badge, true))
		rows = append(rows, row)
	}
	var js bytes.Buffer
	if err := a.JSON(&js); err != nil {
		return err
	}
	files["atlas.json"] = js.Bytes()
	var capsJS bytes.Buffer
	if err := caps.JSON(&capsJS); err != nil {
		return err
	}
	files["capabilities.json"] = capsJS.Bytes()
	var table, badges bytes.Buffer
	if err := siteTemplate().ExecuteTemplate(&table, "table", siteView{Props: a.Properties, Rows: rows}); err != nil {
		return err
	}
	if err := siteTemplate().ExecuteTemplate(&badges, "badges", rows); err != nil {
		return err
	}
	index := report.Page{
		Title: "Atlas of MCP clients",
		Lead: "What each MCP client does with a server's instructions at its newest versions swept, read from the recorded evidence of offline runs against real clients (instrlab sweep). " +
			"Each client's page has its whole version history; atlas.json has all of it; badges/CLIENT.svg is a client's badge.",
		Style: atlasStyle + siteStyle,
		Sections: []report.Section{
			{ID: "clients", Title: "Clients", Body: template.HTML(table.String())},
			{ID: "badges", Title: "Badges", Body: template.HTML(badges.String())},
		},
	}
	if o.Reference != "" {
		ref := `<p>What each client does with everything a server sends (tool descriptions, results, schemas, names, budgets, the protocol), version by version: <a href="` + template.HTMLEscapeString(o.Reference) + `">the client reference</a>.</p>`
		index.Sections = append([]report.Section{{ID: "reference", Title: "Everything else a server sends", Body: template.HTML(ref)}}, index.Sections...)
	}
	var page bytes.Buffer
	if err := report.WritePage(&page, index); err != nil {
		return err
	}
	files["index.html"] = page.Bytes()
	for name, b := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return fmt.Errorf("atlas site: %w", err)
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			return fmt.Errorf("atlas site: %w", err)
		}
	}
	return nil
}

// SiteOptions are how a site is published and what else it holds.
type SiteOptions struct {
	// Link, the https URL the working directory is published under (a
	// repository's tree), makes every evidence link (in the pages,
	// atlas.json and capabilities.json) that URL and the evidence's path
	// from the working directory, so that the site and its exports work
	// wherever they are copied; evidence outside the working directory is
	// then an error.
	Link string
	// Reference, when set, is the client reference's index in the site
	// (a path relative to dir, written beside the atlas by its owner),
	// which the index links.
	Reference string
	// Display gives a client's name as its makers write it
	// (clients.Display), the title of its records in capabilities.json;
	// nil leaves the client's name.
	Display func(client string) string
	// Observed gives, by client, what its versions were measured doing
	// with what a server asks and announces (its profiles' protocol
	// facts), each with its evidence as a path relative to dir, for
	// capabilities.json's records of the ranges that hold them; nil for
	// none.
	Observed func(client string) []ObservedProtocol
}

// publishedAt maps an evidence path relative to dir to its URL under
// link, the working directory's published URL; outside reports the first
// path it could not map, outside the working directory.
func publishedAt(dir, link string) (to func(string) string, outside func() error, err error) {
	if h, ok := untrusted.Href(link); !ok || !strings.HasPrefix(h, "https://") {
		return nil, nil, fmt.Errorf("atlas site: -link %q is not an https URL", link)
	}
	wd, err := filepath.Abs(".")
	if err != nil {
		return nil, nil, err
	}
	base, err := filepath.Abs(dir)
	if err != nil {
		return nil, nil, err
	}
	var first error
	to = func(p string) string {
		rel, err := filepath.Rel(wd, filepath.Join(base, filepath.FromSlash(p)))
		if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			if first == nil {
				first = fmt.Errorf("atlas site: evidence %s is outside the working directory, which -link publishes", p)
			}
			return p
		}
		return strings.TrimSuffix(link, "/") + "/" + filepath.ToSlash(rel)
	}
	return to, func() error { return first }, nil
}

// fileName reports whether a client's name may name its page and badge:
// [a-z0-9][a-z0-9._-]*.
func fileName(s string) bool {
	for i, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || i > 0 && strings.ContainsRune("._-", r)) {
			return false
		}
	}
	return s != ""
}

type siteView struct {
	Props []string
	Rows  []siteRow
}

type siteRow struct {
	Client, Versions string
	Values           []siteValue
	Badge            badgeText
}

type siteValue struct{ Text, Href string }

// newSiteRow is a client's newest segment: the versions it spans and
// every property's value there.
func newSiteRow(props []string, t Timeline) siteRow {
	r := siteRow{Client: t.Client, Versions: "none ran"}
	b := badgeText{Left: t.Client, Right: capSentence("")}
	if n := len(t.Segments); n > 0 {
		s := t.Segments[n-1]
		r.Versions = show(s.From)
		if s.To != s.From {
			r.Versions += " – " + show(s.To)
		}
		b.Left = t.Client + " " + s.To
		if p := s.Props.Find("cap"); p.Name != "" {
			b.Right = capSentence(p.Value)
		}
		for _, name := range props {
			v := siteValue{Text: "not measured"}
			if p := s.Props.Find(name); p.Name != "" {
				v = siteValue{Text: show(p.Value), Href: href(p.Evidence)}
			}
			r.Values = append(r.Values, v)
		}
	}
	r.Badge = b
	return r
}

type badgeText struct{ Left, Right string }

// badge draws a two-part badge, left the client and its newest version,
// right its cap. standalone adds the SVG namespace a file needs (inline in
// HTML it needs none). The texts are escaped and cut to 40 characters.
// capSentence is a badge's right side, the cap property's value as the
// end of a sentence that begins with the client and version: "claude-code
// 2.1.332: instructions cut at 4096 characters".
func capSentence(v string) string {
	switch {
	case v == "" || v == "not measured":
		return "instructions not measured"
	case v == "text not used":
		return "instructions not used"
	case strings.HasPrefix(v, "none up to "):
		return "instructions whole up to " + strings.TrimPrefix(v, "none up to ")
	case v[0] >= '0' && v[0] <= '9':
		return "instructions cut at " + v
	}
	return "instructions: " + v
}

func badge(b badgeText, standalone bool) string {
	const charW, pad = 6.8, 6.0
	cut := func(s string) string {
		s = show(s)
		if utf8.RuneCountInString(s) > 48 {
			s = string([]rune(s)[:47]) + "…"
		}
		return s
	}
	left, right := cut(b.Left), cut(b.Right)
	lw := float64(utf8.RuneCountInString(left))*charW + 2*pad
	rw := float64(utf8.RuneCountInString(right))*charW + 2*pad
	ns := ""
	if standalone {
		ns = ` xmlns="http://www.w3.org/2000/svg"`
	}
	label := template.HTMLEscapeString(left + ": " + right)
	return fmt.Sprintf(`<svg%s width="%.0f" height="20" role="img" aria-label="%s"><title>%s</title>`+
		`<rect width="%.0f" height="20" fill="#4a5568"/><rect x="%.0f" width="%.0f" height="20" fill="#2b6cb0"/>`+
		`<g style="fill:#fff;font:11px DejaVu Sans,Verdana,sans-serif">`+
		`<text x="%.0f" y="14" style="fill:#fff">%s</text><text x="%.0f" y="14" style="fill:#fff">%s</text></g></svg>`,
		ns, lw+rw, label, label, lw, lw, rw, pad, template.HTMLEscapeString(left), lw+pad, template.HTMLEscapeString(right))
}

const siteStyle = template.CSS(`
table.atlas td,table.atlas th{vertical-align:top;text-align:left;padding:.3em .5em;border-bottom:1px solid #e2e8f0}
ul.badges{list-style:none;padding:0}ul.badges li{margin:.3em 0}ul.badges svg{vertical-align:middle}
`)

var siteTemplate = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("site").Funcs(template.FuncMap{
		"badge": func(b badgeText) template.HTML { return template.HTML(badge(b, false)) },
	}).Parse(strings.TrimSpace(`
{{define "table"}}<div class="scroll"><table class="atlas"><thead><tr><th>client</th><th>newest segment</th>{{range .Props}}<th>{{.}}</th>{{end}}</tr></thead><tbody>
{{range .Rows}}<tr><td><a href="{{.Client}}.html">{{.Client}}</a></td><td>{{.Versions}}</td>{{range .Values}}<td>{{if .Href}}<a href="{{.Href}}">{{.Text}}</a>{{else}}{{.Text}}{{end}}</td>{{end}}</tr>
{{end}}</tbody></table></div>{{end}}
{{define "badges"}}<p>Each is an SVG file beside this page, to show in a README.</p><ul class="badges">
{{range .}}<li>{{badge .Badge}} <code>badges/{{.Client}}.svg</code></li>
{{end}}</ul>{{end}}
`)))
})
