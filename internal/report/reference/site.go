package reference

import (
	"bytes"
	"fmt"
	"html/template"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"

	"github.com/instrlab/instrlab/internal/atlas"
	"github.com/instrlab/instrlab/internal/evidence"
	"github.com/instrlab/instrlab/internal/report"
)

// Site writes the atlas site into out (instrlab report -format site):
// the atlas's own pages (atlas.Site) from the sweeps dirs of the first
// one's matrix, merged, and the client reference under out/reference as
// HTML, from the built-in profiles and every dir's atlas (so that
// "atlas atlas/surface" gives the reference both histories), the atlas's
// index linking it. link is as for atlas.SiteOptions and Generate.
func Site(out string, dirs []string, link string) error {
	var same []string
	matrix := ""
	for _, d := range dirs {
		a, err := atlas.Read(evidence.SweepDir(d).Atlas())
		if err != nil {
			return err
		}
		if matrix == "" {
			matrix = a.Matrix
		}
		if a.Matrix == matrix {
			same = append(same, d)
		}
	}
	a, err := atlas.ReadSweeps(same, out)
	if err != nil {
		return err
	}
	if err := a.Site(out, atlas.SiteOptions{Link: link, Reference: "reference/index.html"}); err != nil {
		return err
	}
	src, err := load(filepath.Join(out, "reference"), dirs, link)
	if err != nil {
		return err
	}
	src.html = true
	pages, err := Pages(src)
	if err != nil {
		return err
	}
	for name, b := range pages {
		if strings.HasSuffix(name, ".md") {
			if b, err = htmlPage(b); err != nil {
				return fmt.Errorf("reference page %s: %w", name, err)
			}
		}
		p := filepath.Join(out, "reference", filepath.FromSlash(pageName(name, true)))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			return fmt.Errorf("writing the site's reference: %w", err)
		}
	}
	return nil
}

// pageName is a page's file: as written (.md), or in the site, where
// README.md is index.html and every page .html.
func pageName(file string, html bool) string {
	if !html || !strings.HasSuffix(file, ".md") {
		return file
	}
	if file == "README.md" {
		return "index.html"
	}
	return strings.TrimSuffix(file, ".md") + ".html"
}

var markdown = sync.OnceValue(func() goldmark.Markdown {
	// No goldmark.WithUnsafe: raw HTML in the source is never passed
	// through (the pages hold none; untrusted.Markdown escaped every
	// text), and goldmark drops links to dangerous schemes.
	return goldmark.New(goldmark.WithExtensions(extension.Table))
})

var sectionHeading = regexp.MustCompile(`(?m)^## (.*)\n`)

// htmlPage renders one reference page for the site: its title as the
// page's, each "##" part a section of the report's page shell (its
// navigation links them), each table in a box that scrolls sideways on
// a narrow screen instead of the page.
func htmlPage(md []byte) ([]byte, error) {
	s := string(md)
	title, rest, _ := strings.Cut(s, "\n")
	title = unescape(strings.TrimPrefix(title, "# "))
	if i := strings.Index(rest, "-->\n"); i >= 0 && strings.HasPrefix(strings.TrimSpace(rest), "<!--") {
		rest = rest[i+4:]
	}
	page := report.Page{Title: title, Style: referenceStyle}
	heads := sectionHeading.FindAllStringSubmatchIndex(rest, -1)
	chunk := func(id, title, body string) error {
		var b bytes.Buffer
		if err := markdown().Convert([]byte(body), &b); err != nil {
			return err
		}
		html := strings.NewReplacer("<table>", `<div class="scroll"><table class="full">`, "</table>", "</table></div>").Replace(b.String())
		page.Sections = append(page.Sections, report.Section{ID: id, Title: title, Body: template.HTML(html)})
		return nil
	}
	end := len(rest)
	if len(heads) > 0 {
		end = heads[0][0]
	}
	if err := chunk("overview", "Overview", rest[:end]); err != nil {
		return nil, err
	}
	for i, h := range heads {
		end := len(rest)
		if i+1 < len(heads) {
			end = heads[i+1][0]
		}
		t := unescape(rest[h[2]:h[3]])
		if err := chunk(fmt.Sprintf("s%d-%s", i+1, slug(t)), t, rest[h[1]:end]); err != nil {
			return nil, err
		}
	}
	var b bytes.Buffer
	if err := report.WritePage(&b, page); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// unescape is a heading the page wrote escaped, as plain text (the shell
// escapes it again as HTML).
func unescape(s string) string { return strings.ReplaceAll(s, `\`, "") }

var notSlug = regexp.MustCompile(`[^a-z0-9]+`)

func slug(s string) string {
	return strings.Trim(notSlug.ReplaceAllString(strings.ToLower(s), "-"), "-")
}

// referenceStyle keeps a reference table's cells narrow enough to read
// and long values wrapping.
const referenceStyle = `table.full td,table.full th{max-width:28em;min-width:7em;overflow-wrap:break-word}
section p,section li{max-width:60em;overflow-wrap:anywhere}`
