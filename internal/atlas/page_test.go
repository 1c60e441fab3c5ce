package atlas

import (
	"bytes"
	"flag"
	"html"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"

	"github.com/instrlab/instrlab/internal/testutil"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// pageAtlas is a small history of a fake client: three segments, an exact
// change at 1.0.3, one at 1.0.5 that lies somewhere after 1.0.3, and 1.0.1
// could not run.
func pageAtlas(wrapper string) *Atlas {
	pt := func(v, uses, wrap string) Point {
		dir := "fake@" + v
		return Point{Version: v, Attempt: 1, Dir: dir, Props: Props{
			{Name: "uses", Value: uses, Evidence: dir + "/en-1000/1"},
			{Name: "wrapper", Value: wrap, Evidence: dir + "/en-1000/1"},
		}}
	}
	versions := []string{"1.0.0", "1.0.1", "1.0.2", "1.0.3", "1.0.4", "1.0.5"}
	points := []Point{
		pt("1.0.0", "no", "none"),
		{Version: "1.0.1", Attempt: 1, Dir: "fake@1.0.1", CouldNotRun: "its --help lists no --mcp-config"},
		pt("1.0.2", "no", "none"),
		pt("1.0.3", "yes", wrapper),
		pt("1.0.5", "yes", "## {name}"),
	}
	return &Atlas{Date: "2026-12-01", Command: "instrlab sweep -client fake@all -out sweep", Matrix: "atlas",
		Properties: []string{"uses", "wrapper"}, Timelines: []Timeline{NewTimeline("fake", "all", versions, points)}}
}

func pageHTML(t *testing.T, a *Atlas) string {
	t.Helper()
	var b bytes.Buffer
	if err := a.HTML(&b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestPageGolden(t *testing.T) {
	a := pageAtlas("<instructions>")
	if tl := a.Timelines[0]; len(tl.Segments) != 3 || len(tl.Changes) != 2 || tl.CouldNotRun != 1 {
		t.Fatalf("fixture: %d segments, %d changes, %d could not run; want 3, 2, 1", len(tl.Segments), len(tl.Changes), tl.CouldNotRun)
	}
	page := pageHTML(t, a)
	testutil.Golden(t, filepath.Join("testdata", "atlas.html"), []byte(page), *update)
	for _, want := range []string{
		`<title>Atlas</title>`,
		`aria-label="Timeline of fake"`,
		// the exact change is labelled with its first version, the other
		// with the last it may be, and both link to the evidence
		`<a href="fake@1.0.3"><line x1="630.0"`, `class="changelabel middle">1.0.3</text>`,
		`class="changelabel middle">≤ 1.0.5</text>`,
		// a band's value is written in it and links to its run
		`<a href="fake@1.0.3/en-1000/1"><rect`, `class="bandtext">&lt;instructions&gt;</text>`,
		// the version that could not run: hatched, crossed, in the list
		`class="cnrglyph">✕`, `1.0.1: could not run: its --help lists no --mcp-config`,
		`<a href="fake@1.0.1">1.0.1</a>: its --help lists no --mcp-config</li>`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
}

// TestPageSelfContained: the page fetches nothing, and every link is to
// an evidence directory of the sweep.
func TestPageSelfContained(t *testing.T) {
	a := pageAtlas("## {name}")
	root := t.TempDir()
	for _, p := range a.Timelines[0].Points {
		dirs := []string{p.Dir}
		for _, pr := range p.Props {
			dirs = append(dirs, pr.Evidence)
		}
		for _, d := range dirs {
			if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
				t.Fatal(err)
			}
		}
	}
	page := pageHTML(t, a)
	if bad := testutil.SelfContained(page, root); len(bad) > 0 {
		t.Errorf("the page reaches outside itself: %q", bad)
	}
	if !strings.Contains(page, `href="fake@1.0.3/en-1000/1"`) {
		t.Error("the check saw no evidence link")
	}
}

// TestPageEscapesClientText: a wrapper is the client's text, and reaches
// the page only escaped, controls shown as escapes.
func TestPageEscapesClientText(t *testing.T) {
	page := pageHTML(t, pageAtlas("<script>alert(1)</script>\x1b]0;owned\x07\u202e"))
	for _, bad := range []string{"<script>", "\x1b", "\x07", "\u202e"} {
		if strings.Contains(page, bad) {
			t.Errorf("page holds %q unescaped", bad)
		}
	}
	for _, want := range []string{`&lt;script&gt;alert(1)&lt;/script&gt;\x1b]0;owned\x07\u202e`} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
}

// TestHostileAtlas: an atlas.json is a file anyone may edit in a pull
// request. Its property names, client, versions and matrix reach the
// Markdown and the pages escaped, and an evidence path that is a script,
// data or another host is shown as text, never linked. On main a
// property named with U+202E reached the headers raw, and a javascript:
// evidence became a link in atlas.md.
func TestHostileAtlas(t *testing.T) {
	const rlo = "\u202e"
	a := pageAtlas("w")
	a.Properties = append(a.Properties, "cap"+rlo+"|x")
	a.Matrix = "atlas`" + rlo
	tl := &a.Timelines[0]
	for i := range tl.Points {
		for j := range tl.Points[i].Props {
			tl.Points[i].Props[j].Evidence = []string{"javascript:alert(1)", "data:text/html,<b>", "//evil.example/x", "https://evil.example/x"}[(i+j)%4]
		}
		tl.Points[i].Props = append(tl.Points[i].Props, Prop{Name: "cap" + rlo + "|x", Value: "1", Evidence: "javascript:alert(2)"})
	}
	*tl = NewTimeline("fake"+rlo, "all", tl.Versions, tl.Points)
	var md bytes.Buffer
	if err := a.Markdown(&md, ""); err != nil {
		t.Fatal(err)
	}
	page := pageHTML(t, a)
	dir := t.TempDir()
	if err := a.Site(dir, SiteOptions{}); err != nil && !strings.Contains(err.Error(), "name") {
		t.Fatal(err)
	}
	site, _ := os.ReadFile(filepath.Join(dir, "index.html"))
	for name, out := range map[string]string{"atlas.md": md.String(), "atlas.html": page, "index.html": string(site)} {
		for _, bad := range []string{rlo, "](javascript:", `href="javascript:`, "](data:", `href="data:`, "](//evil", `href="//evil`} {
			if i := strings.Index(out, bad); i >= 0 {
				t.Errorf("%s holds %q: %q", name, bad, out[max(0, i-80):min(len(out), i+40)])
			}
		}
	}
	if !strings.Contains(md.String(), "](https://evil.example/x)") {
		t.Error("an https evidence link was dropped from atlas.md (it may be linked)")
	}
}

var outputHref = regexp.MustCompile(`(?i)href="([^"]*)"`)

// FuzzAtlasOutputs puts a fuzzed client name, property name, value and
// evidence path into an atlas and renders atlas.md (through a real
// Markdown renderer), atlas.html and the site (its index and the client's
// page, when the client's name can name a file): every link any of them
// makes goes to an https URL with a host or a relative path, never to
// another scheme or host, and no text of the atlas becomes markup (an
// element of its own) in a page.
func FuzzAtlasOutputs(f *testing.F) {
	f.Add("fake", "cap", "1", "fake@1/en-1000/1")
	f.Add("fake\u202e", "cap|x", "<script>x</script>", "javascript:alert(1)")
	f.Add("a](javascript:x)", "b]", "c](//evil)", "data:text/html,<b>")
	f.Add("x", "y", "z", "//evil.example/x")
	f.Add("x", "y", "z", "https://evil.example/a)(b")
	f.Add("x", "y", "\x1b]0;t\a", `\\evil\x`)
	md := goldmark.New(goldmark.WithExtensions(extension.Table))
	f.Fuzz(func(t *testing.T, client, prop, value, ev string) {
		a := pageAtlas("w")
		a.Properties = append(a.Properties, prop)
		tl := &a.Timelines[0]
		for i := range tl.Points {
			tl.Points[i].Dir = ev
			tl.Points[i].Props = append(tl.Points[i].Props, Prop{Name: prop, Value: value, Evidence: ev})
		}
		*tl = NewTimeline(client, "all", tl.Versions, tl.Points)
		var src, page, rendered bytes.Buffer
		if err := a.Markdown(&src, ""); err != nil {
			return // a name the atlas refuses is refused, not rendered
		}
		if err := md.Convert(src.Bytes(), &rendered); err != nil {
			t.Fatal(err)
		}
		if err := a.HTML(&page); err != nil {
			return
		}
		outputs := map[string]string{"atlas.md (rendered)": rendered.String(), "atlas.html": page.String()}
		site := t.TempDir()
		if a.Site(site, SiteOptions{}) == nil {
			for _, f := range []string{"index.html", client + ".html"} {
				b, err := os.ReadFile(filepath.Join(site, f))
				if err != nil {
					t.Fatalf("the site has no %s: %v", f, err)
				}
				outputs["site "+f] = string(b)
			}
		}
		for name, out := range outputs {
			for _, m := range outputHref.FindAllStringSubmatch(out, -1) {
				h := html.UnescapeString(m[1])
				u, err := url.Parse(h)
				bad := err != nil || (u.Scheme != "" && (!strings.EqualFold(u.Scheme, "https") || u.Host == "")) || strings.HasPrefix(h, "//") || strings.HasPrefix(h, `\\`)
				if bad {
					t.Fatalf("%s links to %q (client %q, property %q, value %q, evidence %q)", name, h, client, prop, value, ev)
				}
			}
			for _, tag := range []string{"<script", "<img", "<iframe", "<b>"} {
				if strings.Contains(strings.ToLower(out), tag) && !strings.Contains(strings.ToLower(pageAtlasOutput(t, name)), tag) {
					t.Fatalf("%s has %s from the atlas's text (client %q, property %q, value %q, evidence %q)", name, tag, client, prop, value, ev)
				}
			}
		}
	})
}

// pageAtlasOutput is an output of the plain fixture, for what a page has
// of its own.
func pageAtlasOutput(t *testing.T, name string) string {
	a := pageAtlas("w")
	var b bytes.Buffer
	switch {
	case name == "atlas.html":
		return pageHTML(t, a)
	case strings.HasPrefix(name, "site "):
		dir := t.TempDir()
		if err := a.Site(dir, SiteOptions{}); err != nil {
			t.Fatal(err)
		}
		index, _ := os.ReadFile(filepath.Join(dir, "index.html"))
		page, _ := os.ReadFile(filepath.Join(dir, "fake.html"))
		return string(index) + string(page)
	}
	if err := a.Markdown(&b, ""); err != nil {
		t.Fatal(err)
	}
	var r bytes.Buffer
	goldmark.New(goldmark.WithExtensions(extension.Table)).Convert(b.Bytes(), &r)
	return r.String()
}

// TestPageDated: a timeline with release dates gets them on its summary
// line, in a column of the changes table (a version without one "not
// recorded") and in each change mark's title, in the page and in
// atlas.md; one without has no such column (TestPageGolden).
func TestPageDated(t *testing.T) {
	a := pageAtlas("w")
	a.Timelines[0].Released = map[string]string{"1.0.0": "2026-01-01", "1.0.3": "2026-01-04", "1.0.5": "2026-01-06"}
	page := pageHTML(t, a)
	var md strings.Builder
	if err := a.Markdown(&md, ""); err != nil {
		t.Fatal(err)
	}
	for out, wants := range map[string][]string{
		page: {"1.0.0 to 1.0.5, released 2026-01-01 to 2026-01-06);", "<th>first version</th><th>released</th>",
			`1.0.3</a></th><td>2026-01-04</td>`, "first version 1.0.3 (released 2026-01-04; last before it: 1.0.2)"},
		md.String(): {"1.0.0 to 1.0.5, released 2026-01-01 to 2026-01-06);", "| first version | released | before |",
			"| **1.0.3** | 2026-01-04 | 1.0.2 |"},
	} {
		for _, w := range wants {
			if !strings.Contains(out, w) {
				t.Errorf("lacks %q", w)
			}
		}
	}
	delete(a.Timelines[0].Released, "1.0.5")
	if page := pageHTML(t, a); !strings.Contains(page, "1.0.0 to 1.0.5);") || !strings.Contains(page, "released not recorded; last before it: 1.0.3") {
		t.Error("a last version without a date: the summary still dates the span, or the mark does not say not recorded")
	}
}
