package untrusted

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Kinds of invisible character, as Finding.Kind names them.
const (
	KindTag       = "tag"                // U+E0000–U+E007F: invisible copies of ASCII
	KindZeroWidth = "zero-width"         // U+200B–U+200D, U+2060, U+FEFF, ...
	KindBidi      = "bidi"               // embeddings, overrides and isolates: reorder what is shown
	KindVariation = "variation-selector" // U+FE00–U+FE0F, U+E0100–U+E01EF: can carry bytes after any character
	KindFormat    = "format"             // other Unicode format (Cf) characters and fillers
)

// A Finding is a run of invisible characters of one kind in a text.
type Finding struct {
	Kind   string `json:"kind"`
	Offset int    `json:"offset"` // in bytes from the start of the text
	Index  int    `json:"index"`  // in code points from the start of the text
	Count  int    `json:"count"`  // code points in the run
	// Runes lists the run's characters as U+XXXX (the first 8, then "…").
	Runes string `json:"runes"`
	// Decoded is the ASCII a run of tag characters spells, escaped.
	Decoded string `json:"decoded,omitempty"`
}

func (f Finding) String() string {
	s := fmt.Sprintf("%d %s character", f.Count, f.Kind)
	if f.Count != 1 {
		s += "s"
	}
	s += fmt.Sprintf(" at character %d (%s)", f.Index, f.Runes)
	if f.Decoded != "" {
		s += fmt.Sprintf(", spelling %q", f.Decoded)
	}
	return s
}

// Invisible returns the runs of invisible characters in s, in order. A
// run is a stretch of adjacent characters of the same kind.
func Invisible(s string) []Finding {
	var out []Finding
	var cur *Finding
	var runes []string
	var tags strings.Builder
	flush := func() {
		if cur == nil {
			return
		}
		if len(runes) > 8 {
			runes = append(runes[:8], "…")
		}
		cur.Runes = strings.Join(runes, " ")
		if cur.Kind == KindTag {
			cur.Decoded = EscapeLine(tags.String())
		}
		out = append(out, *cur)
		cur, runes = nil, runes[:0]
		tags.Reset()
	}
	index := 0
	for i, r := range s {
		k := kindAt(s, i, r)
		if k == "" || (cur != nil && cur.Kind != k) {
			flush()
		}
		if k != "" {
			if cur == nil {
				cur = &Finding{Kind: k, Offset: i, Index: index}
			}
			cur.Count++
			runes = append(runes, fmt.Sprintf("U+%04X", r))
			if k == KindTag && r >= 0xe0020 && r <= 0xe007e {
				tags.WriteRune(r - 0xe0000)
			}
		}
		index++
	}
	flush()
	return out
}

// HasInvisible reports whether s holds any invisible character; it is
// Invisible without the allocations, for the common clean text.
func HasInvisible(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			for j, r := range s[i:] {
				if kindAt(s, i+j, r) != "" {
					return true
				}
			}
			return false
		}
	}
	return false
}

// kindAt names the kind of the character r at byte i of s, or "" for a
// visible one. It is kindOf, but for the one use of a variation selector
// that shows rather than hides: a single emoji or text presentation
// selector (U+FE0F, U+FE0E) right after a character it applies to, as in
// "❤️" or the keycap "1️⃣" (see presentable).
// Any other selector, or a run of them, is hidden text: the 256 selectors
// can spell a byte each after any character, and U+FE00–U+FE0F half a byte.
func kindAt(s string, i int, r rune) string {
	k := kindOf(r)
	if r != 0xfe0e && r != 0xfe0f || i == 0 {
		return k
	}
	prev, n := utf8.DecodeLastRuneInString(s[:i])
	if prev == utf8.RuneError && n <= 1 || !presentable(prev) {
		return k
	}
	if next, _ := utf8.DecodeRuneInString(s[i+utf8.RuneLen(r):]); next != utf8.RuneError && kindOf(next) == KindVariation {
		return k
	}
	return ""
}

// presentable reports a character that an emoji or text presentation
// selector may follow: a visible one beyond ASCII (❤, ©, ☀), or a keycap's
// digit, # or *.
func presentable(r rune) bool {
	if r < 0x80 {
		return r >= '0' && r <= '9' || r == '#' || r == '*'
	}
	return !isControl(r) && kindOf(r) == ""
}

// kindOf names the kind of an invisible character, or "" for any other.
func kindOf(r rune) string {
	switch {
	case r < 0x80:
		return ""
	case r >= 0xe0000 && r <= 0xe007f:
		return KindTag
	case r == 0x200b, r == 0x200c, r == 0x200d, r == 0x2060, r == 0xfeff, r == 0x180e:
		return KindZeroWidth
	case r == 0x200e, r == 0x200f, r == 0x061c, r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return KindBidi
	case r >= 0xfe00 && r <= 0xfe0f, r >= 0xe0100 && r <= 0xe01ef:
		return KindVariation
	case r == 0x115f, r == 0x1160, r == 0x3164, r == 0xffa0, r == 0x034f:
		return KindFormat
	case unicode.Is(unicode.Cf, r):
		return KindFormat
	}
	return ""
}
