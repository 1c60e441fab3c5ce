package report

import (
	"fmt"
	"sort"
	"strings"

	"github.com/instrlab/instrlab/internal/fakeapi"
	"github.com/instrlab/instrlab/internal/matrix"
)

// columns are the per-client columns, in order; each turns the results of
// one row on one client (its repeats) into a cell.
var columns = []struct {
	name string
	cell func(s *summary) string
}{
	{"runs", func(s *summary) string { return s.runs() }},
	{"server status", func(s *summary) string {
		return s.join(func(r *matrix.Result) string { return r.Observation.ServerStatus })
	}},
	{"server saw", func(s *summary) string { return s.join(handshakeText) }},
	{"probe → initialize", func(s *summary) string { return s.probeDelay() }},
	{"server ready", func(s *summary) string { return s.ready() }},
	{"placement (first request)", func(s *summary) string { return s.join(placementText) }},
	{"chars kept", func(s *summary) string { return s.join(keptText) }},
	{"implied cap", func(s *summary) string { return s.join(capText) }},
	{"transcript says", func(s *summary) string { return s.join(transcriptText) }},
	{"codewords from", func(s *summary) string { return s.join(eraText) }},
	{"reader's answer", func(s *summary) string { return s.join(func(r *matrix.Result) string { return r.Reader.Line() }) }},
	{"client's answer", func(s *summary) string { return s.join(answerText) }},
	{"first request chars / tokens*", func(s *summary) string { return s.join(sizeText) }},
	{"tools sent", func(s *summary) string { return s.join(toolsText) }},
	{"Δ tokens* vs baseline", func(s *summary) string { return s.delta }},
	{"later requests", func(s *summary) string { return s.join(laterText) }},
	{"debug log", func(s *summary) string { return s.join(debugText) }},
	{"outside names asked", func(s *summary) string { return s.join(outsideText) }},
	{"repeats identical", func(s *summary) string { return s.same() }},
}

// summary holds the results of one row on one client.
type summary struct {
	results []*matrix.Result
	delta   string
}

// Build makes the table of results, rows in the order of m, one column
// group per client in the order first seen.
func Build(m *matrix.Matrix, results []matrix.Result) Table {
	var clients []string
	by := map[string]map[string]*summary{} // client → row → summary
	for i := range results {
		r := &results[i]
		if by[r.Client] == nil {
			by[r.Client] = map[string]*summary{}
			clients = append(clients, r.Client)
		}
		s := by[r.Client][r.Row]
		if s == nil {
			s = &summary{}
			by[r.Client][r.Row] = s
		}
		s.results = append(s.results, r)
	}
	for _, rows := range by {
		for _, s := range rows {
			sort.Slice(s.results, func(i, j int) bool { return s.results[i].Repeat < s.results[j].Repeat })
		}
	}
	rowNames, labels := order(m, results)
	baseline := "" // no matrix.json: no baseline
	if m != nil {
		baseline = m.Baseline
	}
	for _, c := range clients {
		base := by[c][baseline]
		for _, s := range by[c] {
			s.delta = deltaText(s, base)
		}
	}
	t := Table{Title: "What reached the model", Columns: []Column{{Name: "configuration"}}}
	for _, c := range clients {
		for _, col := range columns {
			t.Columns = append(t.Columns, Column{Group: c, Name: col.name})
		}
	}
	for _, name := range rowNames {
		row := []Cell{{Text: labels[name]}}
		first := map[int]string{}
		for ci, c := range clients {
			s := by[c][name]
			for k, col := range columns {
				text := "not run"
				if s != nil {
					text = col.cell(s)
				}
				cell := Cell{Text: text}
				if ci == 0 || first[k] == "" {
					first[k] = text
				} else if text != first[k] && k > 0 && s != nil && first[k] != "not run" {
					cell.Diff = true
				}
				row = append(row, cell)
			}
		}
		t.Rows = append(t.Rows, row)
	}
	t.Notes = notes(m, results)
	return t
}

// order lists the rows in matrix order, then any rows found only in the
// results (a matrix changed between runs), with their labels.
func order(m *matrix.Matrix, results []matrix.Result) ([]string, map[string]string) {
	labels := map[string]string{}
	var names []string
	if m != nil {
		for _, r := range m.Rows {
			names = append(names, r.Name)
			labels[r.Name] = r.Label
		}
	}
	var present []string
	seen := map[string]bool{}
	for _, r := range results {
		if !seen[r.Row] {
			seen[r.Row] = true
			present = append(present, r.Row)
			if labels[r.Row] == "" {
				labels[r.Row] = r.Label
			}
		}
	}
	var out []string
	for _, n := range names {
		if seen[n] {
			out = append(out, n)
		}
	}
	for _, n := range present {
		if !contains(out, n) {
			out = append(out, n)
		}
	}
	return out, labels
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func notes(m *matrix.Matrix, results []matrix.Result) []string {
	n := []string{
		fmt.Sprintf("* Token figures are estimates with the %s encoding (github.com/tiktoken-go/tokenizer) over the decoded request text; no public tokenizer matches Anthropic's models.", fakeapi.Encoding),
		"Placement, chars kept, cap and codewords come from the recorded API requests; server saw from the lab's message log; debug log and server status from the client's own files. The reader's answer is what a perfect reader of the last request would reply.",
	}
	if m != nil && m.Baseline != "" {
		n = append(n, fmt.Sprintf("Baseline for Δ: row %q of the same client.", m.Baseline))
	}
	live := false
	models := map[string][]string{}
	var order []string
	for _, r := range results {
		live = live || r.Live
		if r.Observation.Model != "" && !contains(models[r.Client], r.Observation.Model) {
			if models[r.Client] == nil {
				order = append(order, r.Client)
			}
			models[r.Client] = append(models[r.Client], r.Observation.Model)
		}
	}
	for _, c := range order {
		n = append(n, fmt.Sprintf("Model reported by %s: %s.", c, strings.Join(models[c], ", ")))
	}
	other := map[string][]string{}
	var otherOrder []string
	for _, r := range results {
		for _, o := range r.Other {
			if !contains(other[r.Client], o) {
				if other[r.Client] == nil {
					otherOrder = append(otherOrder, r.Client)
				}
				other[r.Client] = append(other[r.Client], o)
			}
		}
	}
	for _, c := range otherOrder {
		n = append(n, fmt.Sprintf("Other requests %s made to the API address (answered by the fake, recorded): %s.", c, strings.Join(other[c], ", ")))
	}
	if live {
		n = append(n, "Live runs: the answers are the real model's; token figures are still estimates.")
	}
	var warned []string
	for _, r := range results {
		if len(r.Warnings) > 0 {
			warned = append(warned, fmt.Sprintf("%s %s #%d: %d warning(s), first: %s", r.Client, r.Row, r.Repeat, len(r.Warnings), r.Warnings[0]))
		}
	}
	sort.Strings(warned)
	return append(n, warned...)
}

// join formats each repeat and collapses them when equal.
func (s *summary) join(f func(r *matrix.Result) string) string {
	var vals []string
	for _, r := range s.results {
		v := f(r)
		if v == "" {
			v = "—"
		}
		vals = append(vals, v)
	}
	if len(vals) == 0 {
		return "—"
	}
	all := true
	for _, v := range vals[1:] {
		all = all && v == vals[0]
	}
	if all {
		return vals[0]
	}
	return strings.Join(vals, " / ")
}
