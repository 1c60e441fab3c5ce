package profiles

import (
	"strings"
	"testing"
)

// TestApplyFirstLine: a client that keeps a text's first line alone keeps
// that line with no marker (and its break where it keeps one, as Codex
// does with instructions; Qwen Code's tool descriptions keep none), cut at
// the cap when it is longer; a text of one line, or a client that keeps
// every line, is cut at the cap only.
func TestApplyFirstLine(t *testing.T) {
	l := Limit{Cap: 10, Unit: UnitCodepoint, Marker: "...", Lines: LinesFirst}
	for _, tc := range []struct {
		lines, text, delivered string
		lineBreak              bool
		kept, lost             int
		cut                    bool
	}{
		{LinesFirst, "# Title\n\nBody text here.", "# Title\n", true, 8, 16, true},
		{LinesFirst, "# Title\n\nBody text here.", "# Title", false, 7, 17, true},
		{LinesFirst, "A first line too long\nand more", "A first li...", true, 10, 20, true},
		{LinesFirst, "A first line too long\nand more", "A first li...", false, 10, 20, true},
		{LinesFirst, "one line", "one line", true, 8, 0, false},
		{LinesAll, "# Title\nBody", "# Title\nBo...", false, 10, 2, true},
		{"", "a\nb", "a\nb", false, 3, 0, false},
	} {
		l.Lines, l.LineBreak = tc.lines, tc.lineBreak
		c := l.Apply(tc.text, 0)
		if c.Delivered != tc.delivered || c.KeptChars != tc.kept || c.LostChars != tc.lost || c.Truncated != tc.cut || c.Chars != len(tc.text) {
			t.Errorf("%s %q: delivered %q, kept %d, lost %d, cut %v, chars %d", tc.lines, tc.text, c.Delivered, c.KeptChars, c.LostChars, c.Truncated, c.Chars)
		}
	}
}

// TestApplyTrim: white space the client removes around a text is neither
// kept nor lost, and goes before the lines rule: a first-line client that
// trims the start keeps the text's first line of words, one that does not
// keeps the empty line before it.
func TestApplyTrim(t *testing.T) {
	const text = "\n\n  First line.\nSecond. \n"
	for _, tc := range []struct {
		trim, lines, delivered string
		kept, lost, trimmed    int
	}{
		{TrimBoth, LinesAll, "First line.\nSecond.", 19, 0, 6},
		{TrimStart, LinesAll, "First line.\nSecond. \n", 21, 0, 4},
		{TrimEnd, LinesAll, "\n\n  First line.\nSecond.", 23, 0, 2},
		{TrimNone, LinesAll, text, 25, 0, 0},
		{"", LinesAll, text, 25, 0, 0},
		{TrimBoth, LinesFirst, "First line.", 11, 8, 6},
		{TrimNone, LinesFirst, "", 0, 25, 0},
	} {
		l := Limit{Cap: 100, Unit: UnitCodepoint, Lines: tc.lines, Trim: tc.trim}
		c := l.Apply(text, 0)
		if c.Delivered != tc.delivered || c.KeptChars != tc.kept || c.LostChars != tc.lost || c.Trimmed != tc.trimmed || c.Chars != 25 {
			t.Errorf("trim %q, lines %s: delivered %q, kept %d, lost %d, trimmed %d, chars %d", tc.trim, tc.lines, c.Delivered, c.KeptChars, c.LostChars, c.Trimmed, c.Chars)
		}
		// Lead: the white space removed at the start, where Kept begins.
		if want := map[string]int{TrimBoth: 4, TrimStart: 4}[tc.trim]; c.Lead != want {
			t.Errorf("trim %q, lines %s: lead %d, want %d", tc.trim, tc.lines, c.Lead, want)
		}
	}
	// A text of white space alone: all of it removed, all of it lead.
	if c := (Limit{Cap: 100, Unit: UnitCodepoint, Trim: TrimStart}).Apply(" \n ", 0); c.Trimmed != 3 || c.Lead != 3 || c.KeptChars != 0 {
		t.Errorf("white space alone: trimmed %d, lead %d, kept %d; want 3, 3, 0", c.Trimmed, c.Lead, c.KeptChars)
	}
}

// TestNameKinds: a name that starts another of the server's names, and
// one that starts with another, are kinds of their own.
func TestNameKinds(t *testing.T) {
	all := []string{"list_directory", "list_directory_with_sizes", "read-file", "list"}
	for name, want := range map[string]string{
		"list_directory":            "prefix prefixed",
		"list_directory_with_sizes": "prefixed",
		"list":                      "prefix",
		"read-file":                 "hyphen",
	} {
		if got := strings.Join(NameKinds(name, all), " "); got != want {
			t.Errorf("%s: %q, want %q", name, got, want)
		}
	}
}
