package untrusted

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Escape returns s as it can be shown on a terminal, keeping its line
// breaks and tabs: every other control character (C0, DEL, C1), every
// invisible character (see Invisible) and every byte that is not valid
// UTF-8 is written as a Go-style escape (\x1b, \u200b, \U000e0041). The ESC
// that starts a CSI or OSC sequence is escaped, so the sequence is printed
// as text and does nothing. "\r\n" is kept as a line break; a lone "\r",
// which moves the cursor back over the line, is escaped. A terminal's
// output is often a CI log, so what a runner would read as a workflow
// command is defused too, on stdout and stderr alike: "::" after nothing
// but white space on a line (a GitHub Actions runner trims the line, then
// looks for "::") is written "\x3a:", and "##[" (its older form, found
// anywhere in a line) "#\x23[".
func Escape(s string) string { return escape(s, false) }

// EscapeLine is Escape for text shown on one line (a name, an error
// message, one stderr line): line breaks and tabs are escaped too.
func EscapeLine(s string) string { return escape(s, true) }

func escape(s string, line bool) string {
	if isPlain(s, line) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	lineStart := true // only spaces since the start of the line
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		start := lineStart
		lineStart = false
		switch {
		case r == utf8.RuneError && size <= 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\n' && !line:
			b.WriteByte('\n')
			lineStart = true
		case r == '\t' && !line:
			b.WriteByte('\t')
			lineStart = start
		case r == '\r' && !line && i+1 < len(s) && s[i+1] == '\n':
			b.WriteByte('\r')
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		case isControl(r) || kindAt(s, i, r) != "":
			writeRune(&b, r)
		case r == ':' && start && strings.HasPrefix(s[i:], "::"):
			b.WriteString(`\x3a`)
		case r == '#' && strings.HasPrefix(s[i:], "##["):
			b.WriteString(`#\x23`)
			size = 2
		case unicode.IsSpace(r) || unicode.Is(unicode.Zs, r):
			b.WriteString(s[i : i+size])
			lineStart = start
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// isPlain reports whether s is printable ASCII (with line breaks and tabs
// unless line) holding nothing a CI runner reads as a command, the common
// case that needs no copy.
func isPlain(s string, line bool) bool {
	start := true // only spaces since the start of the line
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ':' && start && strings.HasPrefix(s[i:], "::"),
			c == '#' && strings.HasPrefix(s[i:], "##["):
			return false
		case c == ' ', c == '\t' && !line:
			continue
		case c == '\n' && !line:
			start = true
			continue
		case c < 0x20 || c >= 0x7f:
			return false
		}
		start = false
	}
	return true
}

// isControl reports a C1 control or a line or paragraph separator, which
// some terminals and editors act on.
func isControl(r rune) bool {
	return (r >= 0x80 && r <= 0x9f) || r == 0x2028 || r == 0x2029
}

func writeRune(b *strings.Builder, r rune) {
	if r > 0xffff {
		fmt.Fprintf(b, `\U%08x`, r)
		return
	}
	fmt.Fprintf(b, `\u%04x`, r)
}
