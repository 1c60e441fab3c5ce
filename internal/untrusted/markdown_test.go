package untrusted

import (
	"bytes"
	"html"
	"regexp"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
)

// gfm renders Markdown as GitHub does its tables and strikethrough
// (goldmark, a CommonMark renderer, with the GFM table extension). Linkify
// is left out: a bare URL may be linked, which Markdown does not prevent.
var gfm = goldmark.New(goldmark.WithExtensions(extension.Table, extension.Strikethrough))

var cellPattern = regexp.MustCompile(`(?s)<tbody>\s*<tr>\s*<td>(.*?)</td>\s*<td>(.*?)</td>\s*</tr>\s*</tbody>`)

// renderCell renders a two-column table whose one row is md then "end",
// and returns the text of the row's first cell, or why the table broke.
func renderCell(t *testing.T, md string) (string, string) {
	t.Helper()
	src := "| a | b |\n|---|---|\n| " + md + " | end |\n\nafter\n"
	var out bytes.Buffer
	if err := gfm.Convert([]byte(src), &out); err != nil {
		t.Fatal(err)
	}
	page := out.String()
	m := cellPattern.FindStringSubmatch(page)
	switch {
	case m == nil || strings.Count(page, "<tr>") != 2 || strings.Count(page, "<td>") != 2:
		return "", "not one row of two cells: " + page
	case m[2] != "end":
		return "", "the row's second cell is not \"end\": " + page
	case strings.ContainsAny(m[1], "<>"):
		return "", "markup in the cell: " + page
	case !strings.HasSuffix(page, "<p>after</p>\n"):
		return "", "the text after the table changed: " + page
	}
	return html.UnescapeString(m[1]), ""
}

func TestMarkdown(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"search_docs", `search_docs`},
		{"_em_ and __init__", `\_em\_ and \_\_init\_\_`},
		{"a|b", `a\|b`},
		{"<img src=x>", `\<img src=x\>`},
		{"![t](https://t.example/p.png)", `!\[t](https://t.example/p.png)`},
		{"0.5 s, #3, a-b", "0.5 s, #3, a-b"},
		{"# heading", `\# heading`},
		{"1. item", `1\. item`},
		{"- item", `\- item`},
		{"x\n| forged |", `x\\n\| forged \|`},
		{"\x1b[31m", `\\x1b\[31m`},
		{"= reader", "= reader"},
		{"::add-mask::x", `\\x3a:add-mask::x`},
	} {
		if got := Markdown(tc.in); got != tc.want {
			t.Errorf("Markdown(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// FuzzMarkdown renders Markdown(s) in a table cell with a real Markdown
// renderer and checks that the table keeps its one row of two cells, that
// the cell holds no markup, and that its text is EscapeLine(s) exactly:
// what the server sent, made visible, and nothing else.
func FuzzMarkdown(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, s string) {
		md := Markdown(s)
		shown(t, "Markdown", s, md, false)
		got, broke := renderCell(t, md)
		if broke != "" {
			t.Fatalf("Markdown(%q) = %q: %s", s, md, broke)
		}
		if want := strings.TrimSpace(EscapeLine(s)); strings.TrimSpace(got) != want {
			t.Fatalf("Markdown(%q) = %q renders as %q, want %q", s, md, got, want)
		}
	})
}
