package report

import (
	"fmt"
	"sort"
	"strings"

	"github.com/instrlab/instrlab/internal/matrix/analyze"
	"github.com/instrlab/instrlab/internal/table"
)

// serversText is the placement cell of a row of several lab servers: the
// servers whose text arrived, in the request's order, each with what it
// kept of what it sent and where, then those that did not arrive.
func serversText(servers []analyze.ServerResult) string {
	in := make([]analyze.ServerResult, 0, len(servers))
	var missing []string
	for _, s := range servers {
		if s.Order > 0 {
			in = append(in, s)
		} else {
			missing = append(missing, s.Name)
		}
	}
	sort.Slice(in, func(i, j int) bool { return in[i].Order < in[j].Order })
	parts := make([]string, 0, len(in))
	for _, s := range in {
		kinds := []string{}
		for _, p := range s.Placements {
			if !contains(kinds, string(p.Kind)) {
				kinds = append(kinds, string(p.Kind))
			}
		}
		parts = append(parts, fmt.Sprintf("%d. %s %s of %s (%s)", s.Order, s.Name, table.Num(s.Kept), table.Num(s.Sent), strings.Join(kinds, " + ")))
	}
	out := "servers in the request's order: " + strings.Join(parts, ", ")
	if len(in) == 0 {
		out = "no server's text in the request"
	}
	if len(missing) > 0 {
		out += "; not in it: " + strings.Join(missing, ", ")
	}
	return out
}
