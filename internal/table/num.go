package table

import "fmt"

// Num writes n with a comma between each group of three digits (12,345),
// the way every count in instrlab's tables, pages and check's report is
// printed.
func Num(n int) string {
	if n < 0 {
		return "-" + Num(-n)
	}
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// Plural is a count of noun, the noun made plural by an s unless n is 1:
// "1 change", "2 changes", "1,250 runs".
func Plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return Num(n) + " " + noun + "s"
}
