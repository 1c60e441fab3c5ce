package table

import (
	"strings"
	"unicode"
)

// DefaultWidth is the width text is wrapped to when the output is not a
// terminal.
const DefaultWidth = 80

// minWidth is the narrowest width text is wrapped to, whatever a terminal
// says.
const minWidth = 20

// DisplayWidth is how many terminal columns s takes: two for an East
// Asian wide character, none for a combining mark, one for the others.
// Text shown with it is escaped first, so it holds no control character.
func DisplayWidth(s string) int {
	n := 0
	for _, r := range s {
		n += runeWidth(r)
	}
	return n
}

func runeWidth(r rune) int {
	switch {
	case r < 0x300:
		return 1
	case unicode.In(r, unicode.Mn, unicode.Me):
		return 0
	case isWide(r):
		return 2
	}
	return 1
}

// wide are the ranges of East Asian wide and fullwidth characters
// (Unicode's EastAsianWidth W and F, the blocks that matter), emoji
// included.
var wide = [][2]rune{
	{0x1100, 0x115F}, {0x231A, 0x231B}, {0x2329, 0x232A}, {0x23E9, 0x23EC}, {0x23F0, 0x23F0}, {0x23F3, 0x23F3},
	{0x25FD, 0x25FE}, {0x2614, 0x2615}, {0x2648, 0x2653}, {0x267F, 0x267F}, {0x2693, 0x2693}, {0x26A1, 0x26A1},
	{0x26AA, 0x26AB}, {0x26BD, 0x26BE}, {0x26C4, 0x26C5}, {0x26CE, 0x26CE}, {0x26D4, 0x26D4}, {0x26EA, 0x26EA},
	{0x26F2, 0x26F3}, {0x26F5, 0x26F5}, {0x26FA, 0x26FA}, {0x26FD, 0x26FD}, {0x2705, 0x2705}, {0x270A, 0x270B},
	{0x2728, 0x2728}, {0x274C, 0x274C}, {0x274E, 0x274E}, {0x2753, 0x2755}, {0x2757, 0x2757}, {0x2795, 0x2797},
	{0x27B0, 0x27B0}, {0x27BF, 0x27BF}, {0x2B1B, 0x2B1C}, {0x2B50, 0x2B50}, {0x2B55, 0x2B55},
	{0x2E80, 0x303E}, {0x3041, 0x33FF}, {0x3400, 0x4DBF}, {0x4E00, 0x9FFF}, {0xA000, 0xA4CF}, {0xA960, 0xA97F},
	{0xAC00, 0xD7A3}, {0xF900, 0xFAFF}, {0xFE10, 0xFE19}, {0xFE30, 0xFE6F}, {0xFF00, 0xFF60}, {0xFFE0, 0xFFE6},
	{0x16FE0, 0x16FE4}, {0x17000, 0x18AFF}, {0x1B000, 0x1B2FF}, {0x1F004, 0x1F004}, {0x1F0CF, 0x1F0CF},
	{0x1F18E, 0x1F18E}, {0x1F191, 0x1F19A}, {0x1F200, 0x1F251}, {0x1F300, 0x1F64F}, {0x1F680, 0x1F6FF},
	{0x1F7E0, 0x1F7EB}, {0x1F90C, 0x1F9FF}, {0x1FA70, 0x1FAFF}, {0x20000, 0x3FFFD},
}

func isWide(r rune) bool {
	for _, w := range wide {
		if r < w[0] {
			return false
		}
		if r <= w[1] {
			return true
		}
	}
	return false
}

// Hang returns text after prefix, wrapped to width columns at spaces,
// each line after the first indented as wide as prefix (at most half the
// width), each line ended by a newline. The line breaks of text are kept,
// and a word wider than a line is broken. No line is wider than width,
// taken as at least 20.
func Hang(prefix, text string, width int) string {
	return hang(prefix, text, max(width, minWidth))
}

// hang is Hang for any width of at least 1.
func hang(prefix, text string, width int) string {
	pad := strings.Repeat(" ", min(DisplayWidth(prefix), width/2))
	parts := breakWord(prefix, width)
	lines := parts[:len(parts)-1]
	cur := parts[len(parts)-1]
	// empty: nothing of text on cur yet; wrapped: cur began at a break
	// Hang made, where a space is dropped.
	empty, wrapped := true, false
	newline := func(wrap bool) {
		lines = append(lines, cur)
		cur, empty, wrapped = pad, true, wrap
	}
	for i, para := range strings.Split(text, "\n") {
		if i > 0 {
			newline(false)
		}
		for j, word := range strings.Split(para, " ") {
			if j > 0 {
				switch {
				case empty && wrapped:
				case !empty && DisplayWidth(cur)+1+DisplayWidth(word) > width:
					newline(true)
				default:
					cur += " "
				}
			}
			for word != "" {
				room := width - DisplayWidth(cur)
				if DisplayWidth(word) <= room {
					cur, empty = cur+word, false
					break
				}
				if !empty || room < 1 {
					newline(true)
					continue
				}
				head := breakWord(word, room)[0]
				if DisplayWidth(head) > room {
					// A wide character with one column left (after a
					// prefix as wide as the line but one): on the next.
					newline(true)
					continue
				}
				cur, word = cur+head, word[len(head):]
				newline(true)
			}
		}
	}
	lines = append(lines, cur)
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(strings.TrimRight(l, " ") + "\n")
	}
	return b.String()
}

// breakWord cuts s into pieces of at most width columns, every one but
// the last full; the pieces are slices of s.
func breakWord(s string, width int) []string {
	if width < 1 || DisplayWidth(s) <= width {
		return []string{s}
	}
	var out []string
	start, cw := 0, 0
	for i, r := range s {
		w := runeWidth(r)
		if cw+w > width && cw > 0 {
			out = append(out, s[start:i])
			start, cw = i, 0
		}
		cw += w
	}
	return append(out, s[start:])
}
