package untrusted

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Escape returns s as it can be shown on a terminal, keeping its line
// breaks and tabs: every other control character (C0, DEL, C1), every
// invisible character (see Invisible) and every byte that is not valid
// UTF-8 is written as a Go-style escape (\x1b, \u200b, \U000e0041). The ESC
// that starts a CSI or OSC sequence is escaped, so the sequence is printed
// as text and does nothing. "\r\n" is kept as a line break; a lone "\r",
// which moves the cursor back over the line, is escaped.
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
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\n' && !line, r == '\t' && !line:
			b.WriteRune(r)
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
		case isControl(r) || kindOf(r) != "":
			writeRune(&b, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// isPlain reports whether s is printable ASCII (with line breaks and tabs
// unless line), the common case that needs no copy.
func isPlain(s string, line bool) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c < 0x7f {
			continue
		}
		if !line && (c == '\n' || c == '\t') {
			continue
		}
		return false
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
