package report

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// Markdown writes t as a GitHub-flavoured markdown table. With several
// clients, a column's header names its client, and cells that differ
// from the first client's are bold.
func Markdown(w io.Writer, t Table) error {
	groups := map[string]bool{}
	for _, c := range t.Columns {
		if c.Group != "" {
			groups[c.Group] = true
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "### %s\n\n", t.Title)
	if len(groups) == 1 {
		for g := range groups {
			fmt.Fprintf(&b, "Client: %s\n\n", g)
		}
	}
	b.WriteString("|")
	for _, c := range t.Columns {
		name := c.Name
		if len(groups) > 1 && c.Group != "" {
			name = c.Group + ": " + name
		}
		b.WriteString(" " + mdEscape(name) + " |")
	}
	b.WriteString("\n|")
	for range t.Columns {
		b.WriteString("---|")
	}
	b.WriteString("\n")
	for _, row := range t.Rows {
		b.WriteString("|")
		for _, c := range row {
			text := mdEscape(c.Text)
			if c.Diff {
				text = "**" + text + "**"
			}
			b.WriteString(" " + text + " |")
		}
		b.WriteString("\n")
	}
	if len(t.Notes) > 0 {
		b.WriteString("\n")
		for _, n := range t.Notes {
			b.WriteString(n + "\n\n")
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func mdEscape(s string) string {
	s = strings.ReplaceAll(s, "|", `\|`)
	return strings.ReplaceAll(s, "\n", " ")
}

// CSV writes t with one header line; a column's header is "client: name".
// A differing cell is not marked (see the JSON for that).
func CSV(w io.Writer, t Table) error {
	cw := csv.NewWriter(w)
	var head []string
	for _, c := range t.Columns {
		name := c.Name
		if c.Group != "" {
			name = c.Group + ": " + name
		}
		head = append(head, name)
	}
	if err := cw.Write(head); err != nil {
		return err
	}
	for _, row := range t.Rows {
		var rec []string
		for _, c := range row {
			rec = append(rec, c.Text)
		}
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// JSON writes the table and the per-run results it was built from.
func JSON(w io.Writer, t Table, results any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(struct {
		Table   Table `json:"table"`
		Results any   `json:"results"`
	}{t, results})
}

// JSONValue writes v as indented JSON.
func JSONValue(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
