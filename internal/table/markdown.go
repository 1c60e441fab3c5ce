package table

import (
	"io"
	"strings"

	"github.com/instrlab/instrlab/internal/untrusted"
)

// Markdown writes t as a GitHub-flavoured markdown table under a "###"
// heading (none when the title is empty). With one column group the
// group is named above the table; with several, each header names its
// group. Differing and strong cells are bold; notes follow as paragraphs.
// Every text (title, group, heading, cell, note) goes through
// untrusted.Markdown: a server's tool name or stderr in a cell shows as
// text and cannot end the cell or the row, start a heading or open HTML.
func Markdown(w io.Writer, t Table) error {
	var b strings.Builder
	if t.Title != "" {
		b.WriteString("### " + untrusted.Markdown(t.Title) + "\n\n")
	}
	groups := t.Groups()
	if groups == 1 {
		for _, c := range t.Columns {
			if c.Group != "" {
				b.WriteString("Client: " + untrusted.Markdown(c.Group) + "\n\n")
				break
			}
		}
	}
	b.WriteString("|")
	for i := range t.Columns {
		b.WriteString(" " + untrusted.Markdown(t.Heading(i, groups)) + " |")
	}
	b.WriteString("\n|")
	for range t.Columns {
		b.WriteString("---|")
	}
	b.WriteString("\n")
	for _, row := range t.Rows {
		b.WriteString("|")
		for _, c := range row {
			text := untrusted.Markdown(c.Text)
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
			b.WriteString(untrusted.Markdown(n) + "\n\n")
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}
