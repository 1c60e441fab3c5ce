package table

import (
	"io"
	"slices"
	"strings"

	"github.com/instrlab/instrlab/internal/untrusted"
)

// Text writes t for a terminal, within the width of w (Width).
func Text(w io.Writer, t Table) error { return TextWidth(w, t, Width(w)) }

// TextWidth writes t for a terminal, no line wider than width: the
// title, a header line and one line per row, columns aligned and parted
// by two spaces, notes after. When the table is wider, the widest columns
// are narrowed and their cells wrapped; when even that cannot fit, each
// row is written as a record, one "column: value" line each. Control
// characters and invisible ones in any text (a server's text can hold
// them) are written as escapes (untrusted.EscapeLine), so nothing in a
// cell can drive the terminal or hide. Differing and strong cells end in
// "*", explained under the table.
func TextWidth(w io.Writer, t Table, width int) error {
	groups := t.Groups()
	head := make([]string, len(t.Columns))
	for i := range t.Columns {
		head[i] = untrusted.EscapeLine(t.Heading(i, groups))
	}
	rows := make([][]string, 0, len(t.Rows))
	// spans[r] is the column from which row r's last cell spans the
	// rest, -1 for none.
	spans := make([]int, 0, len(t.Rows))
	marked := false
	for _, row := range t.Rows {
		line := make([]string, len(t.Columns))
		span := -1
		for i, c := range row {
			if i >= len(line) {
				break
			}
			line[i] = untrusted.EscapeLine(c.Text)
			if c.Diff || c.Strong {
				line[i] += "*"
				marked = true
			}
			if c.Span && i == len(row)-1 && i < len(line)-1 {
				span = i
			}
		}
		rows = append(rows, line)
		spans = append(spans, span)
	}
	var b strings.Builder
	if t.Title != "" {
		b.WriteString(Hang("", untrusted.EscapeLine(t.Title), width) + "\n")
	}
	if widths, ok := fit(head, unspanned(rows, spans), width); ok {
		writeGrid(&b, head, rows, spans, widths)
	} else {
		writeRecords(&b, head, rows, width)
	}
	if marked {
		b.WriteString("\n" + Hang("", "* differs from the first client, or needs attention", width))
	}
	for i, n := range t.Notes {
		if i == 0 {
			b.WriteString("\n")
		}
		b.WriteString(Hang("", untrusted.EscapeLine(n), width))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// narrowest is the width below which a column is not narrowed: its cells
// would wrap a word or two a line.
const narrowest = 10

// fit returns the width of each column so that the table fits width, or
// ok false when it cannot with no column below narrowest (or its own
// width, when that is less). Of the widths that fit, it takes those that
// cost least: a line added to a cell costs one, a word broken two, so a
// column of long names wraps between its words before a column of short
// values wraps at all.
func fit(head []string, rows [][]string, width int) (widths []int, ok bool) {
	lines := append([][]string{head}, rows...)
	n := len(head)
	natural := make([]int, n)
	for _, line := range lines {
		for i, s := range line {
			natural[i] = max(natural[i], DisplayWidth(s))
		}
	}
	room := width - 2*max(n-1, 0)
	total := 0
	for _, w := range natural {
		total += w
	}
	if total <= room {
		return natural, true
	}
	// best[i][r]: the least cost of columns i.. in r columns of room,
	// and the width of column i it takes.
	const none = -1
	best := make([][]int, n+1)
	pick := make([][]int, n)
	for i := range best {
		best[i] = make([]int, room+1)
	}
	for i := n - 1; i >= 0; i-- {
		pick[i] = make([]int, room+1)
		least := min(natural[i], narrowest)
		costs := make([]int, natural[i]+1)
		for w := least; w <= natural[i]; w++ {
			costs[w] = columnCost(lines, i, w)
		}
		for r := 0; r <= room; r++ {
			best[i][r], pick[i][r] = none, none
			for w := least; w <= min(natural[i], r); w++ {
				rest := best[i+1][r-w]
				if rest == none {
					continue
				}
				if c := costs[w] + rest; best[i][r] == none || c < best[i][r] || c == best[i][r] && w > pick[i][r] {
					best[i][r], pick[i][r] = c, w
				}
			}
		}
	}
	if best[0][room] == none {
		return nil, false
	}
	widths = make([]int, n)
	r := room
	for i := range n {
		widths[i] = pick[i][r]
		r -= widths[i]
	}
	return improve(lines, widths, natural), true
}

// improve moves a column of width from one column to another while that
// makes the table cost less (tableCost): the cost fit minimizes counts a
// row once per cell that wraps in it, where the table only grows by its
// tallest cell.
func improve(lines [][]string, widths, natural []int) []int {
	cost := tableCost(lines, widths)
	for moved := true; moved; {
		moved = false
		for from := range widths {
			for to := range widths {
				if from == to || widths[from] <= min(natural[from], narrowest) || widths[to] >= natural[to] {
					continue
				}
				widths[from]--
				widths[to]++
				if c := tableCost(lines, widths); c < cost {
					cost, moved = c, true
					continue
				}
				widths[from]++
				widths[to]--
			}
		}
	}
	return widths
}

// tableCost is the lines the rows take beyond one each (three for the
// heading's), and two for each word broken.
func tableCost(lines [][]string, widths []int) int {
	n := 0
	for r, line := range lines {
		h := 1
		for i, s := range line {
			if DisplayWidth(s) <= widths[i] {
				continue
			}
			h = max(h, len(wrapCell(s, widths[i])))
			for _, word := range strings.Fields(s) {
				if DisplayWidth(word) > widths[i] {
					n += 2
				}
			}
		}
		if r == 0 {
			h = 3*h - 2
		}
		n += h - 1
	}
	return n
}

// columnCost is what column i costs at width w: a line for each line its
// cells take beyond their first (three for its heading's), two for each
// word broken.
func columnCost(lines [][]string, i, w int) int {
	n := 0
	for r, line := range lines {
		s := line[i]
		if DisplayWidth(s) <= w {
			continue
		}
		extra := len(wrapCell(s, w)) - 1
		if r == 0 {
			extra *= 3
		}
		n += extra
		for _, word := range strings.Fields(s) {
			if DisplayWidth(word) > w {
				n += 2
			}
		}
	}
	return n
}

// unspanned is rows with the cells that span columns left out, for
// fitting the columns to the others.
func unspanned(rows [][]string, spans []int) [][]string {
	out := make([][]string, len(rows))
	for r, line := range rows {
		out[r] = line
		if spans[r] >= 0 {
			out[r] = slices.Clone(line)
			out[r][spans[r]] = ""
		}
	}
	return out
}

// writeGrid writes the header and rows in columns of the given widths,
// each cell wrapped to its column; a cell's lines go down its column. A
// spanning cell (spans) is wrapped to the width of the columns it takes.
func writeGrid(b *strings.Builder, head []string, rows [][]string, spans []int, widths []int) {
	for r, line := range append([][]string{head}, rows...) {
		span := -1
		if r > 0 {
			span = spans[r-1]
		}
		if span >= 0 {
			line = line[:span+1]
		}
		cells := make([][]string, len(line))
		colWidths := slices.Clone(widths[:len(line)])
		if span >= 0 {
			for _, w := range widths[span+1:] {
				colWidths[span] += 2 + w
			}
		}
		height := 1
		for i, s := range line {
			cells[i] = wrapCell(s, colWidths[i])
			height = max(height, len(cells[i]))
		}
		for k := range height {
			var l strings.Builder
			for i := range line {
				if i > 0 {
					l.WriteString("  ")
				}
				s := ""
				if k < len(cells[i]) {
					s = cells[i][k]
				}
				l.WriteString(s)
				if i < len(line)-1 {
					l.WriteString(strings.Repeat(" ", colWidths[i]-DisplayWidth(s)))
				}
			}
			b.WriteString(strings.TrimRight(l.String(), " ") + "\n")
		}
	}
}

// wrapCell is s in lines of at most width columns, the lines after the
// first indented as s is.
func wrapCell(s string, width int) []string {
	if DisplayWidth(s) <= width {
		return []string{s}
	}
	text := strings.TrimLeft(s, " ")
	return strings.Split(strings.TrimSuffix(hang(s[:len(s)-len(text)], text, width), "\n"), "\n")
}

// writeRecords writes each row as lines of "column: value", rows parted
// by a blank line.
func writeRecords(b *strings.Builder, head []string, rows [][]string, width int) {
	for r, line := range rows {
		if r > 0 {
			b.WriteString("\n")
		}
		for i, s := range line {
			if s != "" {
				b.WriteString(Hang(head[i]+": ", s, width))
			}
		}
	}
}
