package table

import (
	"encoding/csv"
	"io"

	"github.com/instrlab/instrlab/internal/untrusted"
)

// CSV writes t with one header line; a grouped column's header is
// "group: name". Marks (differing, strong) are not written; the JSON has
// them. Every text is escaped as untrusted.EscapeLine escapes it, so a
// CSV printed or opened shows a server's control and invisible characters
// as escapes.
func CSV(w io.Writer, t Table) error {
	cw := csv.NewWriter(w)
	head := make([]string, len(t.Columns))
	for i := range t.Columns {
		head[i] = untrusted.EscapeLine(t.Heading(i, 2))
	}
	if err := cw.Write(head); err != nil {
		return err
	}
	for _, row := range t.Rows {
		texts := Texts(row)
		for i, s := range texts {
			texts[i] = untrusted.EscapeLine(s)
		}
		if err := cw.Write(texts); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}
