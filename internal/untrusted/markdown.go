package untrusted

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// markdownSpecial are the ASCII characters with a meaning in GitHub
// Markdown that Markdown escapes with a backslash wherever they are: a
// table's pipe, raw HTML's angle brackets, links and images (which need
// their "["), code spans, emphasis and strikethrough, entities, and the
// backslash itself. An underscore is escaped only where it can start or
// end emphasis, not inside a word (o200k_base).
const markdownSpecial = "\\|<>[`*~&"

// Markdown returns s as one line of inline Markdown text that shows s and
// nothing else: escaped as EscapeLine escapes it (control and invisible
// characters, line breaks, workflow commands), then every character with a
// meaning in GitHub Markdown backslash-escaped, so that a server's tool
// name or stderr in a table cell cannot end the cell or the row, start a
// heading, open raw HTML (a tracking image) or a link, or turn the rest of
// the line into code. A block mark at its start (#, >, "- ", "1. ") is
// escaped too, so the text may start a paragraph. A bare URL stays text,
// which GitHub may still show as a link.
func Markdown(s string) string {
	s = EscapeLine(s)
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case strings.IndexByte(markdownSpecial, c) >= 0,
			c == '_' && !inWord(s, i),
			i == 0 && (c == '#' || c == '>'),
			i == 0 && (c == '-' || c == '+') && (len(s) == 1 || s[1] == ' '),
			(c == '.' || c == ')') && allDigits(s[:i]) && (i+1 == len(s) || s[i+1] == ' '):
			b.WriteByte('\\')
		}
		b.WriteByte(c)
	}
	return b.String()
}

// inWord reports whether the underscore at i of s has a letter or digit on
// both sides, where it can neither open nor close emphasis.
func inWord(s string, i int) bool {
	before, _ := utf8.DecodeLastRuneInString(s[:i])
	after, _ := utf8.DecodeRuneInString(s[i+1:])
	word := func(r rune) bool { return r != utf8.RuneError && (unicode.IsLetter(r) || unicode.IsDigit(r)) }
	return word(before) && word(after)
}

// allDigits reports a non-empty run of ASCII digits, which with a "." or
// ")" after it starts an ordered list.
func allDigits(s string) bool {
	if s == "" || len(s) > 9 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
