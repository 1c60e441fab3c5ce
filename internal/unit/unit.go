// Package unit counts a text in the units a client's cap may count (code
// points, UTF-16 units, UTF-8 bytes, graphemes, tokens) and finds, from
// the texts a client cut, the one unit in which every cut kept the same
// length. It is the one owner of "what a cap counts": the run analysis,
// the tables, the profiles and check's cut all use it.
package unit

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/instrlab/instrlab/internal/tokens"
)

// A Unit is what a cap counts.
type Unit string

// The units, in the order they are tried and listed.
const (
	CodePoint Unit = "codepoint"
	UTF16     Unit = "utf16"
	Byte      Unit = "byte"
	// Grapheme is a base character with the combining marks (and joined
	// characters) that follow it: a simplified user-perceived character.
	Grapheme Unit = "grapheme"
	// Token counts tokens.Encoding tokens, an estimate of a model's
	// tokenizer; a client that cuts in its own tokens fits it only roughly.
	Token Unit = "token"
)

// All lists every unit in order.
var All = []Unit{CodePoint, UTF16, Byte, Grapheme, Token}

// Parse returns the unit named s.
func Parse(s string) (Unit, error) {
	for _, u := range All {
		if string(u) == s {
			return u, nil
		}
	}
	names := make([]string, len(All))
	for i, u := range All {
		names[i] = string(u)
	}
	return "", fmt.Errorf("unknown unit %q (want one of %s)", s, strings.Join(names, ", "))
}

// Plural names n of the unit in prose: "code points", "UTF-16 units".
func (u Unit) Plural() string {
	switch u {
	case CodePoint:
		return "code points"
	case UTF16:
		return "UTF-16 units"
	case Byte:
		return "bytes (UTF-8)"
	case Grapheme:
		return "graphemes"
	case Token:
		return "tokens* (" + tokens.Encoding + " estimate)"
	}
	return string(u)
}

// Short is a column-sized name: "cp", "UTF-16", "bytes".
func (u Unit) Short() string {
	switch u {
	case CodePoint:
		return "code points"
	case UTF16:
		return "UTF-16 units"
	case Byte:
		return "bytes"
	case Grapheme:
		return "graphemes"
	case Token:
		return "tokens*"
	}
	return string(u)
}

// Count is the length of s in u.
func (u Unit) Count(s string) int {
	switch u {
	case CodePoint:
		return utf8.RuneCountInString(s)
	case UTF16:
		n := 0
		for _, r := range s {
			n++
			if r >= 0x10000 {
				n++
			}
		}
		return n
	case Byte:
		return len(s)
	case Grapheme:
		n := 0
		for i := 0; i < len(s); i += graphemeLen(s[i:]) {
			n++
		}
		return n
	case Token:
		return tokens.Count(s)
	}
	return utf8.RuneCountInString(s)
}

// step is the length in bytes of the smallest piece a cut in u can keep
// or drop at the start of s: one grapheme for Grapheme, else one code
// point.
func (u Unit) step(s string) int {
	if u == Grapheme {
		return graphemeLen(s)
	}
	_, n := utf8.DecodeRuneInString(s)
	return n
}

// Prefix is the longest prefix of s whose length in u is at most n, ended
// at a code point (for Grapheme, a grapheme) boundary: what a client that
// counts u and never splits a character keeps under a cap of n.
func (u Unit) Prefix(s string, n int) string {
	if n <= 0 {
		return ""
	}
	if u == Token { // counts are not additive: search the longest fit
		if u.Count(s) <= n {
			return s
		}
		lo, hi := 0, len(s) // s[:lo] fits, s[:hi] does not
		for hi-lo > 1 {
			mid := (lo + hi) / 2
			for mid > lo && !utf8.RuneStart(s[mid]) {
				mid--
			}
			if mid == lo {
				mid = lo + u.step(s[lo:])
				if mid >= hi {
					break
				}
			}
			if u.Count(s[:mid]) <= n {
				lo = mid
			} else {
				hi = mid
			}
		}
		return s[:lo]
	}
	i, k := 0, 0
	for i < len(s) {
		w := u.step(s[i:])
		c := u.Count(s[i : i+w])
		if k+c > n {
			break
		}
		i, k = i+w, k+c
	}
	return s[:i]
}

// Clip is Prefix marked where it cut: s when its length in u is at most
// n, else Prefix(s, n) and "…". It is how a table, a page or a message
// quotes a text it shortens.
func (u Unit) Clip(s string, n int) string {
	if p := u.Prefix(s, n); p != s {
		return p + "…"
	}
	return s
}

// graphemeLen is the byte length of the first grapheme of s: one code
// point, then every combining mark, variation selector and zero width
// joiner (with the character it joins) that follows.
func graphemeLen(s string) int {
	_, i := utf8.DecodeRuneInString(s)
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == '\u200d':
			i += n
			if i < len(s) {
				_, m := utf8.DecodeRuneInString(s[i:])
				i += m
			}
		case unicode.Is(unicode.M, r), r >= 0xFE00 && r <= 0xFE0F:
			i += n
		default:
			return i
		}
	}
	return i
}
