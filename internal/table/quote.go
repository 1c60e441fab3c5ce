package table

import "strconv"

// Quote is an excerpt of s for a line of text: quoted as Go quotes a
// string (every control character and invalid byte escaped), its first n
// characters, marked with "…" where cut.
func Quote(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return strconv.Quote(string(r[:n])) + "…"
	}
	return strconv.Quote(s)
}
