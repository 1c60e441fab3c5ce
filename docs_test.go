package instrlab_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var (
	mdLink    = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	mdHeading = regexp.MustCompile(`(?m)^#{1,6} (.*)$`)
	mdFence   = regexp.MustCompile("(?ms)^```.*?^```")
	slugDrop  = regexp.MustCompile(`[^\p{L}\p{N}_\- ]`)
)

// TestDocsLinks holds the manual's links: every relative link of the
// README and docs/ (the generated reference too) names a file of the
// repository, and a link to a heading names one the page has, as GitHub
// makes its anchors. A page moved or a heading renamed fails here, not
// in a reader's hands.
func TestDocsLinks(t *testing.T) {
	pages := []string{"README.md", "atlas/README.md"}
	for _, glob := range []string{"docs/*.md", "docs/reference/*.md", "docs/reference/clients/*.md"} {
		m, err := filepath.Glob(glob)
		if err != nil {
			t.Fatal(err)
		}
		pages = append(pages, m...)
	}
	if len(pages) < 30 {
		t.Fatalf("%d pages: want the README and docs/", len(pages))
	}
	anchors := map[string]map[string]bool{}
	headings := func(file string) map[string]bool {
		if a, ok := anchors[file]; ok {
			return a
		}
		b, _ := os.ReadFile(file)
		a := map[string]bool{}
		for _, m := range mdHeading.FindAllStringSubmatch(mdFence.ReplaceAllString(string(b), ""), -1) {
			a[slug(m[1])] = true
		}
		anchors[file] = a
		return a
	}
	links := 0
	for _, page := range pages {
		b, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range mdLink.FindAllStringSubmatch(string(b), -1) {
			target := strings.Trim(m[1], "<>")
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			file, frag, _ := strings.Cut(target, "#")
			path := page
			if file != "" {
				path = filepath.Join(filepath.Dir(page), filepath.FromSlash(file))
			}
			links++
			if _, err := os.Stat(path); err != nil {
				t.Errorf("%s links %s, which is not there", page, target)
				continue
			}
			if frag != "" && strings.HasSuffix(path, ".md") && !headings(path)[frag] {
				t.Errorf("%s links %s, a heading %s does not have", page, target, path)
			}
		}
	}
	if links < 500 {
		t.Errorf("%d links checked: want every link of the docs", links)
	}
}

// slug is a heading's anchor as GitHub writes it: lower case, punctuation
// dropped, spaces as hyphens.
func slug(h string) string {
	return strings.ReplaceAll(slugDrop.ReplaceAllString(strings.ToLower(strings.TrimSpace(h)), ""), " ", "-")
}
