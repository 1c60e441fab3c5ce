package profiles

import (
	"strings"
	"unicode/utf8"
)

// A Cut is what a client keeps of one text.
type Cut struct {
	Cap       int    // the cap applied; 0 for none
	Chars     int    // the text's length in code points
	Kept      string // the part of the text kept, without the marker
	KeptChars int
	LostChars int
	Truncated bool
	// Delivered is what the client passes on: Kept plus the marker when
	// the text was cut.
	Delivered string
}

// Apply cuts text at limit's cap (cap overrides it when positive).
func (l Limit) Apply(text string, cap int) Cut {
	if cap <= 0 {
		cap = l.Cap
	}
	n := utf8.RuneCountInString(text)
	c := Cut{Cap: cap, Chars: n, Kept: text, KeptChars: n, Delivered: text}
	if cap <= 0 || n <= cap {
		return c
	}
	i := byteOffset(text, cap)
	c.Kept, c.KeptChars, c.LostChars, c.Truncated = text[:i], cap, n-cap, true
	c.Delivered = c.Kept + l.Marker
	return c
}

// byteOffset returns the byte offset of the n-th code point of s.
func byteOffset(s string, n int) int {
	for i := range s {
		if n == 0 {
			return i
		}
		n--
	}
	return len(s)
}

// A Block is one server's delivered instructions.
type Block struct {
	Server string
	Text   string
}

// Apply renders the blocks of the servers that sent instructions the way
// the client puts them in the model's context; no blocks render to "".
func (r Render) Apply(blocks []Block) string {
	if len(blocks) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString(r.Head)
	for i, bl := range blocks {
		if i > 0 {
			b.WriteString(r.Separator)
		}
		s := strings.ReplaceAll(r.Server, "{name}", bl.Server)
		b.WriteString(strings.Replace(s, "{text}", bl.Text, 1))
	}
	b.WriteString(r.Tail)
	return b.String()
}
