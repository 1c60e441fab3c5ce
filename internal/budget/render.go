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
		if len(m.Settings) > 0 {
			var kv []string
			for _, k := range slices.Sorted(maps.Keys(m.Settings)) {
				kv = append(kv, k+"="+m.Settings[k])
			}
			name += " with " + strings.Join(kv, " ")
		}
		res := "—"
		if m.Resolution > 0 {
			res = seconds(m.Resolution)
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
	t.Notes = []string{"wait: how long the client waits, before its first model request, for a server still starting; the server was ready the value after its process started (ready_after), and the budget lies between the longest delay waited for and the shortest not, each met by a run.",
		"A budget measured on a loaded machine is a race as much as a number: the max load column says how loaded it was (the one-minute load average, over the machine's CPUs)."}
	return t
}
