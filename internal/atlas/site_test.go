package atlas

import (
	"encoding/json"
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/instrlab/instrlab/internal/testutil"
)

// siteFiles lists the files under dir, slash paths, sorted.
func siteFiles(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		out = append(out, filepath.ToSlash(rel))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestSite writes the site of a small atlas whose client sent markup as
// its wrapper: an index with the newest segment's values, linked to their
// evidence, a page per client, atlas.json and a badge that is well-formed
// SVG; the markup is escaped everywhere and nothing is fetched from
// outside a page.
func TestSite(t *testing.T) {
	root := t.TempDir()
	a := pageAtlas("<script>alert(1)</script>")
	for _, d := range []string{"fake@1.0.0", "fake@1.0.1", "fake@1.0.2", "fake@1.0.3", "fake@1.0.5"} {
		if err := os.MkdirAll(filepath.Join(root, "sweep", d, "en-1000", "1"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	a.Rebase("../sweep")
	site := filepath.Join(root, "site")
	if err := a.Site(site, SiteOptions{}); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"atlas.json", "badges/fake.svg", "capabilities.json", "fake.html", "index.html"}, siteFiles(t, site)); diff != "" {
		t.Errorf("files mismatch (-want +got):\n%s", diff)
	}
	index := readFile(t, filepath.Join(site, "index.html"))
	for _, want := range []string{
		`<a href="fake.html">fake</a>`,
		// the newest segment is 1.0.5 alone, its wrapper linked to its run
		`<td>1.0.5</td><td><a href="../sweep/fake@1.0.5/en-1000/1">yes</a></td><td><a href="../sweep/fake@1.0.5/en-1000/1">## {name}</a></td>`,
		`aria-label="fake 1.0.5: instructions not measured"`, `<code>badges/fake.svg</code>`,
	} {
		if !strings.Contains(index, want) {
			t.Errorf("index.html lacks %q", want)
		}
	}
	page := readFile(t, filepath.Join(site, "fake.html"))
	for _, want := range []string{`<a href="index.html">All clients</a>`, `aria-label="Timeline of fake"`, `&lt;script&gt;alert(1)&lt;/script&gt;`} {
		if !strings.Contains(page, want) {
			t.Errorf("fake.html lacks %q", want)
		}
	}
	for name, p := range map[string]string{"index.html": index, "fake.html": page} {
		if bad := testutil.SelfContained(p, site); len(bad) > 0 {
			t.Errorf("%s: %q", name, bad)
		}
		if strings.Contains(p, "<script>") {
			t.Errorf("%s holds the client's markup unescaped", name)
		}
	}
	var svg struct {
		XMLName xml.Name
		Title   string   `xml:"title"`
		Texts   []string `xml:"g>text"`
	}
	if err := xml.Unmarshal([]byte(readFile(t, filepath.Join(site, "badges", "fake.svg"))), &svg); err != nil {
		t.Fatalf("badge: %v", err)
	}
	if diff := cmp.Diff([]string{"fake 1.0.5", "instructions not measured"}, svg.Texts); diff != "" || svg.XMLName.Space != "http://www.w3.org/2000/svg" {
		t.Errorf("badge %s, texts mismatch (-want +got):\n%s", svg.XMLName.Space, diff)
	}
	back, err := Read(t.Context(), filepath.Join(site, "atlas.json"))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(a.Timelines, back.Timelines); diff != "" {
		t.Errorf("atlas.json mismatch (-want +got):\n%s", diff)
	}
	// fake has no name known: its three ranges are kept out of Clients
	var caps CapabilitiesFile
	if err := json.Unmarshal([]byte(readFile(t, filepath.Join(site, "capabilities.json"))), &caps); err != nil {
		t.Fatal(err)
	}
	var ranges []string
	for _, r := range caps.Unkeyed["fake"] {
		ranges = append(ranges, r.Facts.First+"–"+r.Facts.Last)
	}
	if diff := cmp.Diff([]string{"1.0.0–1.0.2", "1.0.3–1.0.3", "1.0.5–1.0.5"}, ranges); diff != "" || len(caps.Clients) != 0 {
		t.Errorf("capabilities.json: clients %d, ranges (-want +got):\n%s", len(caps.Clients), diff)
	}
}

// TestSiteBadClientName: a client name that cannot name a file writes
// nothing.
func TestSiteBadClientName(t *testing.T) {
	a := pageAtlas("none")
	a.Timelines[0].Client = "../fake"
	dir := filepath.Join(t.TempDir(), "site")
	err := a.Site(dir, SiteOptions{})
	if err == nil || !strings.Contains(err.Error(), `client "../fake" cannot name a page`) {
		t.Fatalf("error %v", err)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("the site was written: %v", err)
	}
}

// TestSiteBadge: a badge's texts are escaped and cut, whatever a client's
// value holds.
func TestSiteBadge(t *testing.T) {
	got := badge(badgeText{Left: "x 1.0", Right: `cap <b>&"` + strings.Repeat("y", 60)}, false)
	for _, want := range []string{`aria-label="x 1.0: cap &lt;b&gt;&amp;&#34;yyy`, "y…</text>"} {
		if !strings.Contains(got, want) {
			t.Errorf("badge lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "<b>") || strings.Contains(got, "xmlns") {
		t.Errorf("badge: %s", got)
	}
}

// TestSiteCommitted writes the site of the committed atlas: a page and a
// badge per client, every evidence link pointing at a directory that is
// there, nothing fetched from outside; with INSTRLAB_E2E=1 the index and
// Claude Code's page (the longest history) open in headless Chromium with
// no error (two Chromium starts, 10-30 s at load 25).
func TestSiteCommitted(t *testing.T) {
	a, err := Read(t.Context(), filepath.Join(committed, "atlas.json"))
	if err != nil {
		t.Fatal(err)
	}
	site := t.TempDir()
	abs, err := filepath.Abs(committed)
	if err != nil {
		t.Fatal(err)
	}
	rel, err := filepath.Rel(site, abs)
	if err != nil {
		t.Fatal(err)
	}
	a.Rebase(filepath.ToSlash(rel))
	if err := a.Site(site, SiteOptions{}); err != nil {
		t.Fatal(err)
	}
	pages := []string{"index.html"}
	for _, tl := range a.Timelines {
		pages = append(pages, tl.Client+".html")
		if _, err := os.Stat(filepath.Join(site, "badges", tl.Client+".svg")); err != nil {
			t.Error(err)
		}
	}
	if len(pages) < 6 {
		t.Errorf("pages %q: want the index and at least the five swept clients", pages)
	}
	for _, p := range pages {
		if bad := testutil.SelfContained(readFile(t, filepath.Join(site, p)), site); len(bad) > 0 {
			t.Errorf("%s: %d outside references or missing links, first %q", p, len(bad), bad[0])
		}
	}
	if os.Getenv("INSTRLAB_E2E") != "1" {
		return
	}
	bin := testutil.ChromiumPath(t)
	for _, p := range []string{"index.html", "claude-code.html"} {
		if errs := testutil.PageErrors(t, bin, filepath.Join(site, p)); len(errs) > 0 {
			t.Errorf("%s: errors in Chromium: %q", p, errs)
		}
	}
}

func TestSiteFileName(t *testing.T) {
	for s, want := range map[string]bool{"claude-code": true, "kilo": true, "a.b_c-1": true, "": false, "-x": false, ".x": false,
		"../x": false, "a/b": false, "Claude": false, "a b": false, "é": false} {
		if got := fileName(s); got != want {
			t.Errorf("fileName(%q) = %v, want %v", s, got, want)
		}
	}
}

// TestSiteLinked: with -link, every evidence link of the site (pages,
// atlas.json, capabilities.json) is the published URL and the evidence's
// path from the working directory, which a download of the file can
// follow; a known fact still reads off capabilities.json (Claude Code
// 2.1.84's cap of 2,048); evidence outside the working directory is an
// error, not a broken link.
func TestSiteLinked(t *testing.T) {
	t.Chdir("../..") // the repository's root, which holds atlas/
	const link = "https://github.com/instrlab/instrlab/tree/main/"
	site := filepath.Join(t.TempDir(), "site")
	a, err := ReadSweeps(t.Context(), []string{"atlas"}, site)
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Site(site, SiteOptions{Link: link}); err != nil {
		t.Fatal(err)
	}
	caps := readFile(t, filepath.Join(site, "capabilities.json"))
	if strings.Contains(caps, `"../`) || !strings.Contains(caps, `"evidence": "`+link+`atlas/claude-code@`) {
		t.Errorf("capabilities.json links evidence relatively, or not under %s", link)
	}
	var file CapabilitiesFile
	if err := json.Unmarshal([]byte(caps), &file); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, r := range file.Clients["claude-code"] {
		if r.Facts.First == "2.1.84" && r.Facts.Instructions.Limit == 2048 {
			found = true
			for _, p := range r.Facts.Properties {
				if !strings.HasPrefix(p.Evidence, link+"atlas/claude-code@2.1.84/") {
					t.Errorf("2.1.84's %s links %s", p.Name, p.Evidence)
				}
			}
		}
	}
	if !found {
		t.Error("capabilities.json has no claude-code record from 2.1.84 with a cap of 2,048")
	}
	page := readFile(t, filepath.Join(site, "claude-code.html"))
	if !strings.Contains(page, `href="`+link+`atlas/claude-code@2.1.84/en-6000/1"`) || strings.Contains(page, `href="../`) {
		t.Error("claude-code.html does not link its evidence at the published URL")
	}

	outside := t.TempDir()
	b, err := ReadSweeps(t.Context(), []string{"atlas"}, outside)
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir())
	if err := b.Site(outside, SiteOptions{Link: link}); err == nil || !strings.Contains(err.Error(), "outside the working directory") {
		t.Errorf("evidence outside the working directory: %v", err)
	}
	if err := b.Site(outside, SiteOptions{Link: "http://example.org/"}); err == nil || !strings.Contains(err.Error(), "not an https URL") {
		t.Errorf("an http link: %v", err)
	}
}

// TestCapSentence: a badge reads as a sentence after the client and its
// version, for every cap value the committed atlas holds.
func TestCapSentence(t *testing.T) {
	for v, want := range map[string]string{
		"4096 characters":            "instructions cut at 4096 characters",
		"247 characters":             "instructions cut at 247 characters",
		"none up to 6000 characters": "instructions whole up to 6000 characters",
		"text not used":              "instructions not used",
		"":                           "instructions not measured",
		"something new":              "instructions: something new",
	} {
		if got := capSentence(v); got != want {
			t.Errorf("capSentence(%q) = %q, want %q", v, got, want)
		}
	}
}
