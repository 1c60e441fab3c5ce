package table

import (
	"encoding/csv"
	"io"
)

// CSV writes t with one header line; a grouped column's header is
// "group: name". Marks (differing, strong) are not written; the JSON has
// them.
func CSV(w io.Writer, t Table) error {
	cw := csv.NewWriter(w)
	head := make([]string, len(t.Columns))
	for i := range t.Columns {
		head[i] = t.Heading(i, 2)
	}
	if err := cw.Write(head); err != nil {
		return err
	}
	for _, row := range t.Rows {
		if err := cw.Write(Texts(row)); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}
