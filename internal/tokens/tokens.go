package tokens

import "unicode/utf8"

// Encoding is the tokenizer every estimate uses, so that one text gets one
// count across the tool. On the lab's texts it gives about 4.0 characters
// per token in English and 1.5 in Japanese, where Claude showed about 3.1
// and 1.2 in the seed: the estimates are low, by a quarter or so.
const Encoding = "o200k_base"

// Label names the estimate wherever a count is shown.
const Label = "estimate, tiktoken " + Encoding + " (not the client's tokenizer)"

// Count returns the number of tokens of s in Encoding; -1 if the embedded
// vocabulary is unusable (which a test rules out for every build).
func Count(s string) int {
	if s == "" {
		return 0
	}
	v := vocabulary()
	if v == nil {
		return -1
	}
	n := 0
	encode(v, s, func(int) { n++ })
	return n
}

// encode calls yield with the rank of each token of s, in order.
func encode(v *vocab, s string, yield func(rank int)) {
	if !utf8.ValidString(s) {
		// Each invalid byte stands for U+FFFD, as in the reference
		// implementation, which matches its pre-tokenizer on runes.
		s = string([]rune(s))
	}
	var m merger
	for p := 0; p < len(s); {
		end, ok := nextPiece(s, p)
		if !ok {
			p = end
			continue
		}
		piece := s[p:end]
		if r, ok := v.rank(piece); ok {
			yield(r)
		} else {
			m.merge(v, piece, yield)
		}
		p = end
	}
}
