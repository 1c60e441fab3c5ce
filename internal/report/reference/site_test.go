package reference

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/instrlab/instrlab/internal/labvocab"
	"github.com/instrlab/instrlab/internal/testutil"
)

// referenceMD matches a link to a page of the reference as Markdown.
var referenceMD = regexp.MustCompile(`href="(\.\./)?(clients/)?[a-z-]+\.md"`)

// TestSite: report -format site writes the atlas's pages and the client
// reference as HTML beside them, linked from the atlas's index: a page
// per client and per group, every link of every page resolving, nothing
// fetched from outside. With INSTRLAB_E2E=1, the index, a group page and
// the longest client page open in headless Chromium without an error, and
// neither at 1280 nor at 390 pixels does a page scroll sideways (its
// tables scroll in their boxes).
func TestSite(t *testing.T) {
	src := builtinSource(t)
	dirs := committedAtlases(t)
	t.Chdir(root)
	site := t.TempDir()
	if err := Site(t.Context(), site, dirs, "", nil); err != nil {
		t.Fatal(err)
	}
	index, err := os.ReadFile(filepath.Join(site, "index.html"))
	if err != nil || !strings.Contains(string(index), `href="reference/index.html"`) {
		t.Fatalf("the atlas's index does not link the reference (%v)", err)
	}
	pages := []string{"index.html"}
	for _, g := range groups {
		pages = append(pages, pageName(g.file, true))
	}
	for _, c := range clients(src) {
		pages = append(pages, pageName(clientFile(c.id), true))
	}
	for _, p := range pages {
		path := filepath.Join(site, "reference", filepath.FromSlash(p))
		b, err := os.ReadFile(path)
		if err != nil {
			t.Error(err)
			continue
		}
		if bad := testutil.SelfContained(string(b), filepath.Dir(path)); len(bad) > 0 {
			t.Errorf("%s: %d outside references or missing links, first %q", p, len(bad), bad[0])
		}
		if m := referenceMD.FindString(string(b)); m != "" {
			t.Errorf("%s links a Markdown page of the reference, not the site's: %s", p, m)
		}
	}
	// capabilities.json holds, in Claude Code's newest range, what its
	// profile observed of the protocol (over stdio, and over HTTP in
	// 2026-07-28), its evidence resolving from the site.
	var caps struct {
		Clients map[string][]struct {
			Facts struct {
				Newest   bool `json:"newest"`
				Observed []struct {
					Version    string `json:"version"`
					Evidence   string `json:"evidence"`
					Facts      []struct{ Feature, Does string }
					ModernHTTP []struct{ Feature, Does string } `json:"modern_http"`
				} `json:"observed"`
			} `json:"io.github.instrlab/atlas"`
		} `json:"clients"`
	}
	b, err := os.ReadFile(filepath.Join(site, "capabilities.json"))
	if err != nil || json.Unmarshal(b, &caps) != nil {
		t.Fatalf("capabilities.json: %v", err)
	}
	found := false
	for _, r := range caps.Clients["claude-code"] {
		for _, o := range r.Facts.Observed {
			if o.Version != "2.1.332" || !r.Facts.Newest {
				continue
			}
			found = slices.ContainsFunc(o.Facts, func(f struct{ Feature, Does string }) bool {
				return f.Feature == labvocab.FeatureElicitForm && f.Does == "cancel"
			}) && slices.ContainsFunc(o.ModernHTTP, func(f struct{ Feature, Does string }) bool {
				return f.Feature == labvocab.FeatureElicitForm && f.Does == labvocab.DoesInputRequired+"cancel"
			})
			if _, err := os.Stat(filepath.Join(site, filepath.FromSlash(o.Evidence))); err != nil {
				t.Errorf("the observed protocol's evidence %q does not resolve from the site: %v", o.Evidence, err)
			}
		}
	}
	if !found {
		t.Error("capabilities.json: Claude Code's newest range has no observed protocol of 2.1.332 that cancels a form elicitation, over stdio and, in input_required, over HTTP")
	}
	results, _ := os.ReadFile(filepath.Join(site, "reference", "tool-results.html"))
	if !strings.Contains(string(results), `<a href="clients/claude-code.html">Claude Code 2.1.332</a>`) {
		t.Error("tool-results.html has no row for Claude Code 2.1.332 linking its page")
	}
	if os.Getenv("INSTRLAB_E2E") != "1" {
		return
	}
	bin := testutil.ChromiumPath(t)
	for _, p := range []string{"index.html", "tool-results.html", "clients/claude-code.html"} {
		path := filepath.Join(site, "reference", filepath.FromSlash(p))
		if errs := testutil.PageErrors(t, bin, path); len(errs) > 0 {
			t.Errorf("%s: errors in Chromium: %q", p, errs)
		}
		for _, w := range []int{1280, 390} {
			if got := testutil.PageWidth(t, bin, path, w); got > w {
				t.Errorf("%s at %d px: the page lays out %d px wide: it scrolls sideways", p, w, got)
			}
		}
	}
}

// BenchmarkSite writes the whole site from the committed atlases (the
// atlas's pages, capabilities.json reading every probed version's lab
// log, the reference as HTML): the bound is 2 s and 200 MiB
// (docs/benchmarks.md quotes the figures).
//
//	go test ./internal/report/reference -run XXX -bench Site -benchmem -count 5
func BenchmarkSite(b *testing.B) {
	dirs := committedAtlases(b)
	b.Chdir(root)
	for b.Loop() {
		if err := Site(b.Context(), b.TempDir(), dirs, "", nil); err != nil {
			b.Fatal(err)
		}
	}
}
