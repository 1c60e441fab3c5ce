package profiles

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/instrlab/instrlab/internal/unit"
)

// A Cut is what a client keeps of one text. Cap counts the limit's Unit;
// Chars, KeptChars and LostChars count code points, whatever the unit.
type Cut struct {
	Cap       int       // the cap applied, in Unit; 0 for none
	Unit      unit.Unit // what Cap counts
	Units     int       // the text's length in Unit
	Chars     int       // the text's length in code points
	Kept      string    // the part of the text kept, without the marker
	KeptChars int
	LostChars int
	// Trimmed counts the code points of white space around the text that
	// the client removed (Limit.Trim): neither kept nor lost; Lead those
	// of them at its start (Kept starts there).
	Trimmed, Lead int
	Truncated     bool
	// FirstLine is set when the client kept the text's first line alone
	// (Limit.Lines), cut at the cap too where that line is longer.
	FirstLine bool
	// Delivered is what the client passes on: Kept plus the marker when
	// the text was cut.
	Delivered string
}

// What a client keeps of a text of several lines (Limit.Lines).
const (
	LinesAll   = "all"
	LinesFirst = "first"
)

// What a client removes of the white space around a text (Limit.Trim).
const (
	TrimNone  = "none"
	TrimStart = "start"
	TrimEnd   = "end"
	TrimBoth  = "both"
)

// trim is text without the white space l.Trim removes, how many code
// points that was, and how many of them were at its start.
func (l Limit) trim(text string) (t string, trimmed, lead int) {
	t = text
	if l.Trim == TrimStart || l.Trim == TrimBoth {
		t = strings.TrimLeftFunc(t, unicode.IsSpace)
		lead = utf8.RuneCountInString(text[:len(text)-len(t)])
	}
	if l.Trim == TrimEnd || l.Trim == TrimBoth {
		t = strings.TrimRightFunc(t, unicode.IsSpace)
	}
	return t, utf8.RuneCountInString(text) - utf8.RuneCountInString(t), lead
}

// Apply cuts text at limit's cap (cap overrides it when positive), counted
// in the limit's unit, at the last whole character that fits, unless the
// text is no longer than the limit's Whole (with its own cap); a client
// that keeps a text's first line alone (LinesFirst) keeps that line (and
// its break, LineBreak), cut at the cap if it is longer.
//
// White space that the client removes around a text (Trim) goes first:
// the lab's padded description is shorter than every cap measured, so
// the order of the two is not measured.
func (l Limit) Apply(text string, cap int) Cut {
	if t, n, lead := l.trim(text); n > 0 {
		l.Trim = ""
		c := l.Apply(t, cap)
		c.Units, c.Chars, c.Trimmed, c.Lead = l.unit().Count(text), c.Chars+n, n, lead
		return c
	}
	if cap <= 0 {
		cap = l.Cap
	}
	u := l.unit()
	n := utf8.RuneCountInString(text)
	c := Cut{Cap: cap, Unit: u, Units: u.Count(text), Chars: n, Kept: text, KeptChars: n, Delivered: text}
	if i := strings.IndexByte(text, '\n'); l.Lines == LinesFirst && i >= 0 && i < len(text)-1 {
		// The first line alone, with its break where the client keeps
		// one and no marker (as measured: Codex sends "- mcp__lab: FIRST
		// LINE" and a break, Qwen Code a tool's first line quoted), then
		// the cap.
		if l.LineBreak {
			i++
		}
		c = l.Apply(text[:i], cap)
		c.Units, c.Chars = u.Count(text), n
		c.LostChars, c.Truncated, c.FirstLine = n-c.KeptChars, true, true
		return c
	}
	if cap <= 0 || c.Units <= cap || cap == l.Cap && c.Units <= l.Whole {
		return c
	}
	c.Kept = u.Prefix(text, cap)
	c.KeptChars = utf8.RuneCountInString(c.Kept)
	c.LostChars, c.Truncated = n-c.KeptChars, true
	c.Delivered = c.Kept + l.Marker
	return c
}

// unit is the limit's Unit, code points when unset (Validate rejects an
// unknown one).
func (l Limit) unit() unit.Unit {
	if u, err := unit.Parse(l.Unit); err == nil {
		return u
	}
	return unit.CodePoint
}

// A Block is one server's delivered instructions.
type Block struct {
	Server string
	Text   string
}

// Apply renders the blocks of the servers that sent instructions the way
// the client puts them in the model's context; no blocks render to "".
func (r Render) Apply(blocks []Block) string {
	if len(blocks) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString(r.Head)
	for i, bl := range blocks {
		if i > 0 {
			b.WriteString(r.Separator)
		}
		s := strings.ReplaceAll(r.Server, "{name}", bl.Server)
		b.WriteString(strings.Replace(s, "{text}", bl.Text, 1))
	}
	b.WriteString(r.Tail)
	return b.String()
}
