package table

import (
	"io"
	"strings"
	"unicode/utf8"

	"github.com/instrlab/instrlab/internal/untrusted"
)

// Text writes t for a terminal: the title, a header line and one line per
// row, columns aligned and parted by two spaces, notes after. Control
// characters and invisible ones in any text (a server's text can hold
// them) are written as escapes (untrusted.EscapeLine), so nothing in a
// cell can drive the terminal or hide. Differing and
// strong cells end in "*", explained under the table.
func Text(w io.Writer, t Table) error {
	groups := t.Groups()
	cells := make([][]string, 0, len(t.Rows)+1)
	head := make([]string, len(t.Columns))
	for i := range t.Columns {
		head[i] = untrusted.EscapeLine(t.Heading(i, groups))
	}
	cells = append(cells, head)
	marked := false
	for _, row := range t.Rows {
		line := make([]string, len(row))
		for i, c := range row {
			line[i] = untrusted.EscapeLine(c.Text)
			if c.Diff || c.Strong {
				line[i] += "*"
				marked = true
			}
		}
		cells = append(cells, line)
	}
	width := make([]int, len(t.Columns))
	for _, line := range cells {
		for i, s := range line {
			if i < len(width) {
				width[i] = max(width[i], utf8.RuneCountInString(s))
			}
		}
	}
	var b strings.Builder
	if t.Title != "" {
		b.WriteString(untrusted.EscapeLine(t.Title) + "\n\n")
	}
	for _, line := range cells {
		var l strings.Builder
		for i, s := range line {
			if i > 0 {
				l.WriteString("  ")
			}
			l.WriteString(s)
			if i < len(line)-1 && i < len(width) {
				l.WriteString(strings.Repeat(" ", width[i]-utf8.RuneCountInString(s)))
			}
		}
		b.WriteString(strings.TrimRight(l.String(), " ") + "\n")
	}
	if marked {
		b.WriteString("\n* differs from the first client, or needs attention\n")
	}
	for i, n := range t.Notes {
		if i == 0 {
			b.WriteString("\n")
		}
		b.WriteString(untrusted.EscapeLine(n) + "\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}
