package table

// A Table is a format-neutral table: columns, optionally in groups (one
// group per client), rows of cells, and notes printed under it.
type Table struct {
	Title   string   `json:"title"`
	Columns []Column `json:"columns"`
	Rows    [][]Cell `json:"rows"`
	Notes   []string `json:"notes"`
}

// A Column has a name and the group it belongs to; columns without a
// group (the configuration) come first.
type Column struct {
	Group string `json:"group,omitempty"`
	Name  string `json:"name"`
}

// A Cell is one value. Diff marks a value that differs from the first
// group's value for the same column and row; Strong one the reader should
// not miss (a missed target). Link is the evidence file the value came
// from, relative to the table's evidence directory.
type Cell struct {
	Text   string `json:"text"`
	Diff   bool   `json:"diff,omitempty"`
	Strong bool   `json:"strong,omitempty"`
	Link   string `json:"link,omitempty"`
	// Span, on the last cell of a row shorter than the table, makes it
	// take the row's remaining columns in text, as a failure's reason
	// does in place of the values it has none of.
	Span bool `json:"span,omitempty"`
}

// Groups reports how many distinct column groups t has.
func (t Table) Groups() int {
	seen := map[string]bool{}
	for _, c := range t.Columns {
		if c.Group != "" {
			seen[c.Group] = true
		}
	}
	return len(seen)
}

// Heading is a column's name as a flat table shows it: "group: name" when
// the table has several groups, the name alone otherwise.
func (t Table) Heading(i int, groups int) string {
	c := t.Columns[i]
	if groups > 1 && c.Group != "" {
		return c.Group + ": " + c.Name
	}
	return c.Name
}

// Texts is a row's cells as plain strings.
func Texts(row []Cell) []string {
	out := make([]string, len(row))
	for i, c := range row {
		out[i] = c.Text
	}
	return out
}
