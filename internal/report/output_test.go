package report

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/instrlab/instrlab/internal/table"
)

// TestTextWidth: run's summary (one client, and two) and diff's text
// output have no line wider than the width they are written to, at the
// width of no terminal and narrower and wider ones.
func TestTextWidth(t *testing.T) {
	one, two := openFixture(t, "2.1.328"), openFixture(t, "2.1.285")
	both := Compare(two, one, DiffOptions{Tolerance: 0.1})
	both.A, both.B = "testdata/diff/2.1.285", "testdata/diff/2.1.328"
	outputs := map[string]table.Table{
		"summary, one client":   one.Summary(),
		"summary, two versions": New(nil, append(slices.Clone(two.g.results), one.g.results...), "").Summary(),
		"diff":                  both.Table(),
	}
	for name, tab := range outputs {
		for _, width := range []int{40, 60, table.DefaultWidth, 120} {
			var b bytes.Buffer
			if err := table.TextWidth(&b, tab, width); err != nil {
				t.Fatal(err)
			}
			for i, l := range strings.Split(b.String(), "\n") {
				if w := table.DisplayWidth(l); w > width {
					t.Errorf("%s at %d columns: line %d is %d wide: %q", name, width, i+1, w, l)
				}
			}
		}
	}
}

// TestHTMLNoMarkdown: the page's text holds no Markdown syntax, which a
// browser would show as itself: a client's text in a cell (a wrapper, a
// truncation marker) is quoted plainly.
func TestHTMLNoMarkdown(t *testing.T) {
	var b bytes.Buffer
	if err := openFixture(t, "2.1.328").HTML(&b); err != nil {
		t.Fatal(err)
	}
	for _, md := range []string{"`", "**"} {
		if i := strings.Index(b.String(), md); i >= 0 {
			t.Errorf("the page holds %q: …%s…", md, b.String()[max(0, i-80):min(b.Len(), i+80)])
		}
	}
	if !strings.Contains(b.String(), "&#34;… [truncated]&#34;") {
		t.Error("the page does not quote the truncation marker")
	}
}
