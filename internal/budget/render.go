package budget

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/instrlab/instrlab/internal/table"
)

// Formats are the formats Write writes.
var Formats = table.Formats{"text", "md", "json"}

// Write writes measurements as a table (text or md), or as JSON.
func Write(w io.Writer, format string, ms []Measurement) error {
	switch format {
	case "json":
		return table.JSON(w, ms)
	case "md":
		return table.Markdown(w, Table(ms))
	case "text":
		return table.Text(w, Table(ms))
	}
	return Formats.Check(format)
}

// Table is one row per measurement: the budget as a number with its
// resolution and runs, what the client does past it, whether a late
// server reaches a later request, and the load the runs saw.
func Table(ms []Measurement) table.Table {
	t := table.Table{Title: "Budgets", Columns: []table.Column{{Name: "client"}, {Name: "budget"}, {Name: "value"}, {Name: "resolution"},
		{Name: "runs"}, {Name: "past it"}, {Name: "a late server"}, {Name: "max load"}}}
	for _, m := range ms {
		name := m.Budget
		if m.Way != "" {
			name += " (" + m.Way + ")"
		}
		if len(m.Settings) > 0 {
			var kv []string
			for _, k := range slices.Sorted(maps.Keys(m.Settings)) {
				kv = append(kv, k+"="+m.Settings[k])
			}
			name += " with " + strings.Join(kv, " ")
		}
		res := "—"
		k, known := kindOf(m.Budget)
		if m.Resolution > 0 && known {
			res = k.format(m.Resolution)
		}
		load := "not measured"
		if m.MaxLoad > 0 {
			load = fmt.Sprintf("%.1f", m.MaxLoad)
		}
		runs := fmt.Sprint(m.Runs)
		if m.Disagree > 0 {
			runs += fmt.Sprintf(" (%d disagree: a race near the edge)", m.Disagree)
		}
		t.Rows = append(t.Rows, []table.Cell{{Text: m.Client}, {Text: name}, {Text: m.Text(), Strong: m.Failed != ""}, {Text: res},
			{Text: runs}, {Text: m.PastBudget}, {Text: m.Late}, {Text: load}})
	}
	for _, k := range kinds {
		if slices.ContainsFunc(ms, func(m Measurement) bool { return m.Budget == k.name }) {
			t.Notes = append(t.Notes, k.note)
		}
	}
	t.Notes = append(t.Notes, "A budget of time measured on a loaded machine is a race as much as a number: the max load column says how loaded it was (the one-minute load average, over the machine's CPUs). A count (defer, name, result) is read from what the client sent and is the same in every run.")
	return t
}
