package table

import (
	"fmt"
	"io"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Text writes t for a terminal: the title, a header line and one line per
// row, columns aligned and parted by two spaces, notes after. Control
// characters in any text (a server's text can hold them) are written as
// Go escapes, so nothing in a cell can drive the terminal. Differing and
// strong cells end in "*", explained under the table.
func Text(w io.Writer, t Table) error {
	groups := t.Groups()
	cells := make([][]string, 0, len(t.Rows)+1)
	head := make([]string, len(t.Columns))
	for i := range t.Columns {
		head[i] = Safe(t.Heading(i, groups))
	}
	cells = append(cells, head)
	marked := false
	for _, row := range t.Rows {
		line := make([]string, len(row))
		for i, c := range row {
			line[i] = Safe(c.Text)
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
		b.WriteString(Safe(t.Title) + "\n\n")
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
		b.WriteString("\n* differs from the first client, or misses its target\n")
	}
	for i, n := range t.Notes {
		if i == 0 {
			b.WriteString("\n")
		}
		b.WriteString(Safe(n) + "\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// Safe replaces control characters (newlines too) and invalid UTF-8 in s
// with visible escapes, for a terminal.
func Safe(s string) string {
	clean := utf8.ValidString(s)
	for _, r := range s {
		clean = clean && !unsafeRune(r)
	}
	if clean {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case unsafeRune(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
		i += size
	}
	return b.String()
}

// unsafeRune reports control characters, line and paragraph separators and
// bidirectional controls (which can reorder what a terminal shows).
func unsafeRune(r rune) bool {
	return unicode.IsControl(r) || r == '\u2028' || r == '\u2029' || unicode.Is(unicode.Bidi_Control, r)
}
