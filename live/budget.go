package live

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// fit applies the budget to text, reporting text that exceeds it.
func (cfg *config) fit(c Conn, text string) string {
	if cfg.budget <= 0 {
		return text
	}
	n := utf8.RuneCountInString(text)
	if n <= cfg.budget {
		return text
	}
	if !cfg.trim {
		cfg.report(c, fmt.Errorf("%w: %d characters, budget %d, sent whole", ErrOverBudget, n, cfg.budget))
		return text
	}
	t := Trim(text, cfg.budget)
	cfg.report(c, fmt.Errorf("%w: %d characters, budget %d, trimmed to %d", ErrOverBudget, n, cfg.budget, utf8.RuneCountInString(t)))
	return t
}

// Trim returns the longest head of text that has at most budget characters
// (runes) and ends at a section boundary: before a blank line or before a
// line that starts a Markdown heading. Trailing newlines of the head are
// dropped. If no section boundary fits it cuts at the last line break that
// fits, and failing that at the last character that fits. Text within the
// budget is returned unchanged.
func Trim(text string, budget int) string {
	if budget <= 0 {
		return ""
	}
	if utf8.RuneCountInString(text) <= budget {
		return text
	}
	cut := 0 // byte length of the first budget runes
	for n := 0; n < budget; n++ {
		_, size := utf8.DecodeRuneInString(text[cut:])
		cut += size
	}
	section, line := -1, -1
	// A newline at p keeps text[:p], which fits when p <= cut.
	for p := strings.IndexByte(text, '\n'); p >= 0 && p <= cut; {
		rest := text[p+1:]
		if strings.TrimRight(text[:p], "\n") != "" {
			if strings.HasPrefix(rest, "\n") || strings.HasPrefix(rest, "#") {
				section = p
			}
			line = p
		}
		next := strings.IndexByte(rest, '\n')
		if next < 0 {
			break
		}
		p += 1 + next
	}
	switch {
	case section >= 0:
		return strings.TrimRight(text[:section], "\n")
	case line >= 0:
		return strings.TrimRight(text[:line], "\n")
	}
	return text[:cut]
}
