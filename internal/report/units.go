package report

import (
	"fmt"
	"sort"
	"strings"

	"github.com/instrlab/instrlab/internal/matrix/analyze"
	"github.com/instrlab/instrlab/internal/table"
	"github.com/instrlab/instrlab/internal/unit"
)

// unitNotes are the table's notes on what each client's cap counts.
func unitNotes(clients []string, findings map[string]unit.Finding) []string {
	var out []string
	for _, c := range clients {
		f := findings[c]
		if f.Cut == 0 && f.Whole == 0 {
			continue
		}
		out = append(out, fmt.Sprintf("Cap unit of %s: %s.", c, f))
	}
	return out
}

// unitsText is the kept part of a cut text in every unit that differs from
// code points, as in "UTF-16 units 4,096, bytes 8,170", or "".
func unitsText(r *analyze.Result) string {
	s, ok := r.Sample()
	if !ok || !s.Cut() {
		return ""
	}
	cp := unit.CodePoint.Count(s.Kept)
	var parts []string
	for _, u := range unit.All[1:] {
		if u == unit.Token {
			continue
		}
		if n := u.Count(s.Kept); n != cp {
			parts = append(parts, u.Short()+" "+table.Num(n))
		}
	}
	sort.Strings(parts)
	return strings.Join(parts, ", ")
}
