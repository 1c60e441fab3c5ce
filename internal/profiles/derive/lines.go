package derive

import (
	"strings"
	"unicode/utf8"

	"github.com/instrlab/instrlab/internal/profiles"
	"github.com/instrlab/instrlab/lab"
)

// apartLines sets apart the runs of a text of several lines (-instr
// lines:N), which say only what the client keeps of such a text and must
// not move the cap, its unit or its marker.
func apartLines(all []run) (others, lines []run) {
	return apartBy(all, func(r run) bool { return strings.HasPrefix(r.Row.Instr, string(lab.Lines)+":") })
}

// deriveLines says what the client kept of a text of several lines in
// the first request of the runs of a lines row: all of it (LinesAll), or
// its first line alone, the line break at most after it (LinesFirst); ""
// when no run used the text or the runs disagree.
func deriveLines(runs []run) string {
	got := ""
	for _, r := range runs {
		if r.First == nil || r.First.Best() == nil {
			continue
		}
		b := r.First.Best()
		text := r.text(b.Reply)
		first, _, _ := strings.Cut(text, "\n")
		n := utf8.RuneCountInString(first)
		var v string
		switch {
		case b.Full:
			v = profiles.LinesAll
		case b.Kept == n || b.Kept == n+1:
			v = profiles.LinesFirst
		default:
			return ""
		}
		if got != "" && got != v {
			return ""
		}
		got = v
	}
	return got
}
