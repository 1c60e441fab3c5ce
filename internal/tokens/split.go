package tokens

import (
	"unicode"
	"unicode/utf8"
)

// The pre-tokenizer of o200k_base splits text into pieces with this
// pattern, tried alternative by alternative at each position, the first
// that matches winning:
//
//	[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?
//	[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?
//	\p{N}{1,3}
//	 ?[^\s\p{L}\p{N}]+[\r\n/]*
//	\s*[\r\n]+
//	\s+(?!\S)
//	\s+
//
// nextPiece below is that pattern written out, with the backtracking each
// alternative needs and nothing more. Every position matches one of them,
// so the pieces tile the text, but for two details in which this follows
// the reference implementation (github.com/tiktoken-go/tokenizer) rather
// than the pattern, so that every count stays what it was:
//   - U+007F (DEL) is in neither [^\s\p{L}\p{N}] nor [^\r\n\p{L}\p{N}],
//     so no alternative matches it and it is skipped, counting nothing;
//   - where \s* gives back characters so that [\r\n]+ can match, it gives
//     back to the first line break of the run, not the last.

const del = '\x7f'

// nextPiece returns the end of the piece that starts at p, and false if no
// alternative matches there (the rune at p is then skipped).
func nextPiece(s string, p int) (int, bool) {
	for _, alt := range [...]func(string, int) int{casedWord, upperWord, digits, punctuation, lineBreaks, spacesBeforeSpace, spaces} {
		if end := alt(s, p); end > p {
			return end, true
		}
	}
	_, n := utf8.DecodeRuneInString(s[p:])
	return p + n, false
}

// The classes, each with the answer for ASCII first.

func isUpperish(r rune) bool { // \p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}
	if r < utf8.RuneSelf {
		return 'A' <= r && r <= 'Z'
	}
	return unicode.In(r, unicode.Lu, unicode.Lt, unicode.Lm, unicode.Lo, unicode.M)
}

func isLowerish(r rune) bool { // \p{Ll}\p{Lm}\p{Lo}\p{M}
	if r < utf8.RuneSelf {
		return 'a' <= r && r <= 'z'
	}
	return unicode.In(r, unicode.Ll, unicode.Lm, unicode.Lo, unicode.M)
}

func isLetter(r rune) bool { // \p{L}
	if r < utf8.RuneSelf {
		return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z'
	}
	return unicode.IsLetter(r)
}

func isNumber(r rune) bool { // \p{N}
	if r < utf8.RuneSelf {
		return '0' <= r && r <= '9'
	}
	return unicode.In(r, unicode.N)
}

// isLead reports whether r may lead a word: [^\r\n\p{L}\p{N}].
func isLead(r rune) bool {
	return r != '\r' && r != '\n' && r != del && !isLetter(r) && !isNumber(r)
}

// isSymbol: [^\s\p{L}\p{N}].
func isSymbol(r rune) bool {
	return r != del && !unicode.IsSpace(r) && !isLetter(r) && !isNumber(r)
}

func isLineBreak(r rune) bool { return r == '\r' || r == '\n' }

// run returns the end of the longest run of runes in class from p, at most
// max runes (max < 0: no limit).
func run(s string, p int, class func(rune) bool, max int) int {
	for max != 0 && p < len(s) {
		r, n := utf8.DecodeRuneInString(s[p:])
		if !class(r) {
			break
		}
		p += n
		max--
	}
	return p
}

// leads returns where a word may begin after the optional lead at p: past
// the lead first, then at p itself, as the greedy optional gives it back.
func leads(s string, p int) [2]int {
	if r, n := utf8.DecodeRuneInString(s[p:]); isLead(r) {
		return [2]int{p + n, p}
	}
	return [2]int{p, -1}
}

// casedWord: lead? upperish* lowerish+ contraction?
func casedWord(s string, p int) int {
	for _, q0 := range leads(s, p) {
		if q0 < 0 {
			break
		}
		q := run(s, q0, isUpperish, -1)
		for e := q; ; { // upperish* gives back one rune at a time
			if end := run(s, e, isLowerish, -1); end > e {
				return contraction(s, end)
			}
			if e == q0 {
				break
			}
			_, n := utf8.DecodeLastRuneInString(s[:e])
			e -= n
		}
	}
	return p
}

// upperWord: lead? upperish+ lowerish* contraction?
func upperWord(s string, p int) int {
	for _, q0 := range leads(s, p) {
		if q0 < 0 {
			break
		}
		if q := run(s, q0, isUpperish, -1); q > q0 {
			return contraction(s, run(s, q, isLowerish, -1))
		}
	}
	return p
}

// contraction extends a word at e by 's, 't, 're, 've, 'm, 'll or 'd, in
// any case (and 'ſ, which folds to 's).
func contraction(s string, e int) int {
	if e >= len(s) || s[e] != '\'' {
		return e
	}
	r1, n1 := utf8.DecodeRuneInString(s[e+1:])
	r2, _ := utf8.DecodeRuneInString(s[e+1+n1:])
	switch r1 {
	case 'S', 'T', 's', 't', 'ſ', 'M', 'm', 'D', 'd':
		return e + 1 + n1
	case 'R', 'r', 'V', 'v':
		if r2 == 'E' || r2 == 'e' {
			return e + 3
		}
	case 'L', 'l':
		if r2 == 'L' || r2 == 'l' {
			return e + 3
		}
	}
	return e
}

// digits: \p{N}{1,3}
func digits(s string, p int) int { return run(s, p, isNumber, 3) }

// punctuation: ' '? [^\s\p{L}\p{N}]+ [\r\n/]*, the space not given back.
func punctuation(s string, p int) int {
	q := p
	if s[q] == ' ' {
		q++
	}
	e := run(s, q, isSymbol, -1)
	if e == q {
		return p
	}
	return run(s, e, func(r rune) bool { return isLineBreak(r) || r == '/' }, -1)
}

// lineBreaks: \s*[\r\n]+
func lineBreaks(s string, p int) int {
	q := run(s, p, unicode.IsSpace, -1)
	for i := p; i < q; i++ { // the first line break of the run (see above)
		if s[i] == '\r' || s[i] == '\n' {
			return run(s, i, isLineBreak, -1)
		}
	}
	return p
}

// spacesBeforeSpace: \s+(?!\S), all the spaces at the end of the text, or
// all but the last before anything else.
func spacesBeforeSpace(s string, p int) int {
	q := run(s, p, unicode.IsSpace, -1)
	if q == p || q == len(s) {
		return q
	}
	_, n := utf8.DecodeLastRuneInString(s[:q])
	if q-n == p {
		return p
	}
	return q - n
}

// spaces: \s+
func spaces(s string, p int) int { return run(s, p, unicode.IsSpace, -1) }
