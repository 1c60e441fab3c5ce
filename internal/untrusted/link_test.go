package untrusted

import (
	"strings"
	"testing"
)

// TestHref: relative paths and https URLs are links; a script, data, a
// host reached by a relative scheme or a backslash, and control or
// invisible characters are not.
func TestHref(t *testing.T) {
	for target, ok := range map[string]bool{
		"claude-code@2.1.332/en-1000/1/request.json": true,
		"../evidence/run.json#L3":                    true,
		"https://github.com/instrlab/instrlab":       true,
		"javascript:alert(1)":                        false,
		"JavaScript:alert(1)":                        false,
		"data:text/html;base64,PHNjcmlwdD4=":         false,
		"//evil.example/x":                           false,
		"/\\evil.example/x":                          false,
		"http://example.com/x":                       false,
		"https://":                                   false,
		"run\u202e.json":                             false,
		"run\n.json":                                 false,
		"a b.json":                                   false,
		"":                                           false,
	} {
		if _, got := Href(target); got != ok {
			t.Errorf("Href(%q) ok = %v, want %v", target, got, ok)
		}
	}
}

// TestMarkdownLink: an allowed target is linked (in angle brackets when a
// parenthesis would end it); any other gives the text alone.
func TestMarkdownLink(t *testing.T) {
	for _, tt := range []struct{ text, target, want string }{
		{"1,024", "c/r/1/request.json", "[1,024](c/r/1/request.json)"},
		{"x", "a)b.json", "[x](<a)b.json>)"},
		{"[click]", "javascript:alert(1)", `\[click]`},
		{"v", "a<b>.json", "[v](a%3Cb%3E.json)"},
	} {
		if got := MarkdownLink(tt.text, tt.target); got != tt.want {
			t.Errorf("MarkdownLink(%q, %q) = %q, want %q", tt.text, tt.target, got, tt.want)
		}
	}
	if got := MarkdownLink("x", "data:,x"); strings.Contains(got, "](") {
		t.Errorf("a data: URL was linked: %q", got)
	}
}
