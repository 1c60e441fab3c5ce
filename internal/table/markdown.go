package table

import (
	"io"
	"strings"
)

// Markdown writes t as a GitHub-flavoured markdown table under a "###"
// heading (none when the title is empty). With one column group the
// group is named above the table; with several, each header names its
// group. Differing and strong cells are bold; notes follow as paragraphs.
func Markdown(w io.Writer, t Table) error {
	var b strings.Builder
	if t.Title != "" {
		b.WriteString("### " + t.Title + "\n\n")
	}
	groups := t.Groups()
	if groups == 1 {
		for _, c := range t.Columns {
			if c.Group != "" {
				b.WriteString("Client: " + c.Group + "\n\n")
				break
			}
		}
	}
	b.WriteString("|")
	for i := range t.Columns {
		b.WriteString(" " + mdEscape(t.Heading(i, groups)) + " |")
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
			if c.Diff || c.Strong {
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
