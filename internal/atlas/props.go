package atlas

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/instrlab/instrlab/internal/matrix"
	"github.com/instrlab/instrlab/internal/matrix/analyze"
	"github.com/instrlab/instrlab/internal/unit"
)

// A property is one thing a sweep compares between versions: its name,
// the probe-matrix row it is read from, and how the value is read from
// that row's result. Adding a property is one entry here (and, if it needs
// a new run, one row in the atlas matrix, internal/matrix/atlas.json).
type property struct {
	name, row string
	read      func(r analyze.Result) string
}

// registry lists the properties in the order they are shown.
var registry = []property{
	{"uses", "en-1000", readUses},
	{"placement", "en-1000", readPlacement},
	{"wrapper", "en-1000", readWrapper},
	{"probe", "en-1000", readProbe},
	{"cap", "en-6000", readCap},
	{"marker", "en-6000", readMarker},
	{"dual-era", "en-1000-dual", readDual},
	{"slow-server", "en-1000-held3", readSlow},
	// The surface's, from the surface matrix's rows (surface.go).
	{"result-form", "surface-results", readResultForm},
	{"schema-keywords", "surface-schemas", readSchemaKeywords},
	{"tool-names", "surface-names", readToolNames},
}

// PropertyNames lists the properties a sweep with probe matrix m reads,
// in order: those whose row m has.
func PropertyNames(m *matrix.Matrix) []string {
	var out []string
	for _, p := range registry {
		if hasRow(m, p.row) {
			out = append(out, p.name)
		}
	}
	return out
}

func hasRow(m *matrix.Matrix, name string) bool {
	for _, r := range m.Rows {
		if r.Name == name {
			return true
		}
	}
	return false
}

// Properties reads every property of probe matrix m from the results of
// one version's runs of it. rel turns a run directory into the path
// recorded as evidence. A row that is missing or failed makes the version
// not runnable: the error says which row and why, and no property is
// guessed. A value read from a timing-sensitive run (analyze.Timing) says
// so in its Timing; a row run several times whose runs disagree gives the
// rate of each value, as in "yes 3 of 5; no 2 of 5", and is
// timing-sensitive: a client that does two things is racing.
func Properties(m *matrix.Matrix, results []analyze.Result, rel func(dir string) string) (Props, error) {
	byRow := map[string][]analyze.Result{}
	for _, r := range results {
		byRow[r.Row] = append(byRow[r.Row], r)
	}
	var out Props
	for _, p := range registry {
		if !hasRow(m, p.row) {
			continue
		}
		runs := byRow[p.row]
		if len(runs) == 0 {
			return nil, fmt.Errorf("row %s did not run", p.row)
		}
		sort.SliceStable(runs, func(i, j int) bool { return runs[i].Repeat < runs[j].Repeat })
		var ok []analyze.Result
		for _, r := range runs {
			if r.Status == "ok" {
				ok = append(ok, r)
			}
		}
		if len(ok) == 0 {
			return nil, fmt.Errorf("row %s failed: %s", p.row, Reason(runs[0].Reason))
		}
		out = append(out, readRuns(p, ok, rel))
	}
	return out, nil
}

// readRuns reads one property from the finished runs of its row, in
// repeat order.
func readRuns(p property, runs []analyze.Result, rel func(string) string) Prop {
	prop := Prop{Name: p.name, Value: p.read(runs[0]), Evidence: rel(runs[0].Dir)}
	counts := map[string]int{}
	var order []string
	for _, r := range runs {
		v := p.read(r)
		if counts[v] == 0 {
			order = append(order, v)
		}
		counts[v]++
		if r.Timing.Sensitive && prop.Timing == "" {
			prop.Timing = r.Timing.Why
		}
	}
	if len(order) > 1 {
		sort.SliceStable(order, func(i, j int) bool { return counts[order[i]] > counts[order[j]] })
		var parts []string
		for _, v := range order {
			parts = append(parts, fmt.Sprintf("%s %d of %d", v, counts[v], len(runs)))
		}
		prop.Value = strings.Join(parts, "; ")
		prop.Timing = fmt.Sprintf("%d runs disagree", len(runs))
	}
	return prop
}

// Reason is a failure's text as a point keeps it (Point.CouldNotRun)
// and a property's error says it: its first line, "…" when more followed.
func Reason(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i] + " …"
	}
	return s
}

// laterBest is the best placement of the text in any model request after
// the first, or nil.
func laterBest(r analyze.Result) *analyze.Placement {
	var best *analyze.Placement
	for i := range r.Requests {
		q := &r.Requests[i]
		if r.First != nil && q.Seq <= r.First.Seq {
			continue
		}
		if b := q.Best(); b != nil && (best == nil || b.Kept > best.Kept) {
			best = b
		}
	}
	return best
}

func readUses(r analyze.Result) string {
	switch {
	case r.First.Best() != nil:
		return "yes"
	case laterBest(r) != nil:
		return "in a later request only"
	default:
		return "no"
	}
}

func best(r analyze.Result) *analyze.Placement {
	if b := r.First.Best(); b != nil {
		return b
	}
	return laterBest(r)
}

func readPlacement(r analyze.Result) string {
	b := best(r)
	if b == nil {
		return "none"
	}
	return string(b.Kind)
}

func readWrapper(r analyze.Result) string {
	b := best(r)
	if b == nil {
		return "none"
	}
	w := serverNameRE().ReplaceAllString(b.Wrapper, "{name}")
	if w == "" {
		return "(bare text)"
	}
	return w
}

func readProbe(r analyze.Result) string {
	if len(r.Handshake.Methods) == 0 {
		return "nothing sent"
	}
	return r.Handshake.Methods[0] + " first"
}

func readCap(r analyze.Result) string {
	b := best(r)
	switch {
	case b == nil:
		return "text not used"
	case b.Full:
		return fmt.Sprintf("none up to %d characters", r.Sent)
	}
	// The unit of the cut as unit.CapOf decides it from the cut alone
	// (a sweep has no plain runs of a version to go by): code points
	// unless the client's log or a round cap names another.
	if s, ok := r.Sample(); ok && b == r.First.Best() {
		if u, c, ok := (unit.Finding{}).CapOf(s); ok && u != unit.CodePoint {
			return fmt.Sprintf("%d %s", c, u.Plural())
		}
	}
	return fmt.Sprintf("%d characters", b.Kept)
}

func readMarker(r analyze.Result) string {
	b := best(r)
	if b == nil || b.Full {
		return "no cut"
	}
	// The suffix runs on into whatever the client put after the block:
	// the marker is its first line.
	m, _, _ := strings.Cut(b.Suffix, "\n")
	if strings.TrimSpace(m) == "" {
		return "none"
	}
	return fmt.Sprintf("%q", m)
}

func readDual(r analyze.Result) string {
	b := best(r)
	kept := "no text used"
	if b != nil {
		kept = string(b.Reply) + " text used"
	}
	sent := "initialize sent"
	if !r.Handshake.InitializeSent {
		sent = "initialize never sent"
	}
	return kept + ", " + sent
}

func readSlow(r analyze.Result) string {
	switch {
	case r.First.Best() != nil:
		return "waits (text in the first request)"
	case laterBest(r) != nil:
		return "does not wait (text from a later request)"
	default:
		return "does not wait (text never arrives)"
	}
}

// serverNameRE matches the lab's server name as a word, not inside one
// ("Available" holds "lab").
var serverNameRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\b` + regexp.QuoteMeta(matrix.ServerName) + `\b`)
})

// BudgetProperty names the property of budget b on the timeline.
func BudgetProperty(b string) string { return b + " budget" }
