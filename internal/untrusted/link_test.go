package untrusted

import (
	"bytes"
	"html"
	"net/url"
	"regexp"
	"strings"
	"testing"
)

var anchorPattern = regexp.MustCompile(`<a href="([^"]*)"`)

// safeHref reports whether a rendered link destination names something
// instrlab may link to: an https URL with a host, or a relative path (no
// scheme, not "//host").
func safeHref(h string) bool {
	u, err := url.Parse(h)
	if err != nil {
		return false
	}
	if u.Scheme != "" {
		return strings.EqualFold(u.Scheme, "https") && u.Host != ""
	}
	return !strings.HasPrefix(h, "//") && !strings.HasPrefix(h, `\\`)
}

// FuzzMarkdownLink renders MarkdownLink(text, target) in a table cell with
// a real Markdown renderer (GitHub's dialect) and checks that the table
// keeps its one row of two cells, that the cell holds at most one link,
// that a link's destination is an https URL or a relative path, never
// another scheme or host, and that the link is there exactly when Href
// allows the target.
func FuzzMarkdownLink(f *testing.F) {
	for _, s := range seeds {
		f.Add(s, "https://example.com/a")
		f.Add("evidence", s)
	}
	for _, target := range []string{"javascript:alert(1)", "JaVaScRiPt:alert(1)", "data:text/html,<b>", "//evil.example/x", `\\evil\x`,
		"https://evil.example/a)b](javascript:x)", "run/1 (a)", "a<b>c", "https:evil", "java\nscript:x", " https://x.example"} {
		f.Add("v", target)
	}
	f.Fuzz(func(t *testing.T, text, target string) {
		md := MarkdownLink(text, target)
		shown(t, "MarkdownLink", text+target, md, false)
		src := "| a | b |\n|---|---|\n| " + md + " | end |\n\nafter\n"
		var out bytes.Buffer
		if err := gfm.Convert([]byte(src), &out); err != nil {
			t.Fatal(err)
		}
		page := out.String()
		if strings.Count(page, "<tr>") != 2 || strings.Count(page, "<td>") != 2 || !strings.Contains(page, "<td>end</td>") || !strings.HasSuffix(page, "<p>after</p>\n") {
			t.Fatalf("MarkdownLink(%q, %q) = %q broke the table: %s", text, target, md, page)
		}
		anchors := anchorPattern.FindAllStringSubmatch(page, -1)
		if len(anchors) > 1 {
			t.Fatalf("MarkdownLink(%q, %q) = %q renders %d links: %s", text, target, md, len(anchors), page)
		}
		_, ok := Href(target)
		if ok != (len(anchors) == 1) {
			t.Fatalf("MarkdownLink(%q, %q) = %q: Href allows it %v, links rendered %d: %s", text, target, md, ok, len(anchors), page)
		}
		for _, a := range anchors {
			if h := html.UnescapeString(a[1]); !safeHref(h) {
				t.Fatalf("MarkdownLink(%q, %q) = %q links to %q: %s", text, target, md, h, page)
			}
		}
	})
}

// TestMarkdownLink: what the fuzz target's seeds show, as examples.
func TestMarkdownLink(t *testing.T) {
	for _, tc := range []struct{ text, target, want string }{
		{"1.0.3", "fake@1.0.3/en-1000/1", "[1.0.3](fake@1.0.3/en-1000/1)"},
		{"run", "https://github.com/o/r/actions/runs/1", "[run](https://github.com/o/r/actions/runs/1)"},
		{"x", "javascript:alert(1)", "x"},
		{"x", "//evil.example/x", "x"},
		{"x", "run/1 (a)", "x"}, // a space is not a destination instrlab writes
		{"x", "run/(a)", "[x](<run/(a)>)"},
	} {
		if got := MarkdownLink(tc.text, tc.target); got != tc.want {
			t.Errorf("MarkdownLink(%q, %q) = %q, want %q", tc.text, tc.target, got, tc.want)
		}
	}
}
