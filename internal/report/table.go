package report

// A Table is a rendered-format-neutral table: columns in groups (one group
// per client), rows of cells, and notes printed under it.
type Table struct {
	Title   string   `json:"title"`
	Columns []Column `json:"columns"`
	Rows    [][]Cell `json:"rows"`
	Notes   []string `json:"notes"`
}

// A Column has a name and the group (client) it belongs to; the first
// column, the configuration, has no group.
type Column struct {
	Group string `json:"group,omitempty"`
	Name  string `json:"name"`
}

// A Cell is one value. Diff marks a value that differs from the first
// client's value for the same column and row.
type Cell struct {
	Text string `json:"text"`
	Diff bool   `json:"diff,omitempty"`
}
