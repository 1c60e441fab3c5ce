package profiles

import "testing"

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
