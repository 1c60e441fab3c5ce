package assess

import (
	"strings"
	"unicode/utf8"

	"github.com/instrlab/instrlab/internal/unit"
)

// A Section is one part of an instructions text: under a Markdown heading,
// or a paragraph when the text has no headings.
type Section struct {
	Title string `json:"title"`
	Start int    `json:"start"` // code point offset
	End   int    `json:"end"`
}

// Chars is the section's length in code points.
func (s Section) Chars() int { return s.End - s.Start }

// titleLen bounds a title taken from a paragraph's first words.
const titleLen = 48

// Sections splits text at Markdown headings (lines starting with one to six
// '#' and a space); text before the first heading is a section of its own.
// Without headings it splits at blank lines. A text with neither is one
// section.
func Sections(text string) []Section {
	lines := strings.SplitAfter(text, "\n")
	var secs []Section
	off := 0
	headings := false
	for _, l := range lines {
		if heading(l) != "" {
			headings = true
			break
		}
	}
	start, title := 0, ""
	blank := false
	for i, l := range lines {
		n := utf8.RuneCountInString(l)
		isBreak := false
		next := ""
		switch {
		case headings:
			if h := heading(l); h != "" {
				isBreak, next = true, h
			}
		case strings.TrimSpace(l) == "":
			blank = true
		case blank:
			isBreak, next, blank = true, firstWords(l), false
		}
		if i == 0 {
			title = next
			if title == "" {
				title = firstWords(l)
			}
		} else if isBreak {
			secs = append(secs, Section{Title: title, Start: start, End: off})
			start, title = off, next
		}
		off += n
	}
	if off > start || len(secs) == 0 {
		secs = append(secs, Section{Title: title, Start: start, End: off})
	}
	return secs
}

// heading returns a Markdown heading's text, or "".
func heading(line string) string {
	t := strings.TrimRight(line, "\r\n")
	h := strings.TrimLeft(t, "#")
	level := len(t) - len(h)
	if level < 1 || level > 6 || !strings.HasPrefix(h, " ") {
		return ""
	}
	return strings.TrimSpace(t)
}

func firstWords(s string) string {
	return unit.CodePoint.Clip(strings.Join(strings.Fields(s), " "), titleLen)
}

// Loss is what a cut at offset k loses of sections: the sections lost
// whole, and the one cut inside (nil when the cut falls between sections).
type Loss struct {
	Whole []Section `json:"whole,omitempty"`
	Cut   *Section  `json:"cut,omitempty"`
	// CutLost is how many characters the cut section loses.
	CutLost int `json:"cut_lost,omitempty"`
}

func lossAt(secs []Section, k int) Loss {
	var l Loss
	for _, s := range secs {
		switch {
		case s.Start >= k:
			l.Whole = append(l.Whole, s)
		case s.End > k:
			c := s
			l.Cut, l.CutLost = &c, s.End-k
		}
	}
	return l
}
