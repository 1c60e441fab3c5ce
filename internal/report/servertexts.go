package report

import (
	"fmt"
	"slices"
	"strings"

	"github.com/instrlab/instrlab/internal/matrix/analyze"
)

// serverNotes say, per user's server, what the runs examined: each
// reply's instructions and the tool list by length and digest, where the
// server started and with how many variables, so that a user can tell
// whether run and check (which names its texts the same way) examined
// the same server. Runs that saw different texts are named with each.
func serverNotes(results []analyze.Result) []string {
	type seen struct {
		print   string
		clients []string
	}
	var names []string
	prints := map[string][]*seen{}
	starts := map[string]*analyze.ServerStart{}
	for _, r := range results {
		if r.Server == "" || r.ServerTexts == nil || r.Status != analyze.StatusOK {
			continue
		}
		if _, ok := prints[r.Server]; !ok {
			names = append(names, r.Server)
			prints[r.Server] = nil
		}
		if starts[r.Server] == nil {
			starts[r.Server] = r.ServerStart
		}
		p := r.ServerTexts.Print()
		if p == "" {
			continue
		}
		i := slices.IndexFunc(prints[r.Server], func(s *seen) bool { return s.print == p })
		if i < 0 {
			prints[r.Server] = append(prints[r.Server], &seen{print: p})
			i = len(prints[r.Server]) - 1
		}
		if s := prints[r.Server][i]; !contains(s.clients, r.Who()) {
			s.clients = append(s.clients, r.Who())
		}
	}
	var out []string
	for _, name := range names {
		ps := prints[name]
		var what string
		switch len(ps) {
		case 0:
			what = "no reply with instructions or tools was recorded"
		case 1:
			what = ps[0].print
		default:
			var parts []string
			for _, s := range ps {
				parts = append(parts, fmt.Sprintf("%s (%s)", s.print, strings.Join(s.clients, ", ")))
			}
			what = "DIFFERENT texts in different runs: " + strings.Join(parts, " | ")
		}
		n := fmt.Sprintf("Server %s as the runs saw it: %s", name, what)
		if st := starts[name]; st != nil {
			n += fmt.Sprintf("; started in %s with %d variables (their names in run.json)", st.Dir, len(st.Env))
		}
		out = append(out, n+". check names what it examined the same way (sha256 of the text).")
	}
	return out
}
