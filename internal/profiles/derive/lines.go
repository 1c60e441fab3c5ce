package derive

import (
	"strings"
	"unicode/utf8"

	"github.com/instrlab/instrlab/internal/profiles"
	"github.com/instrlab/instrlab/lab"
)

// apartLines sets apart the runs of a text of several lines (-instr
// lines:N, or a tool_description lines:N), which say only what the client
// keeps of such a text and must not move the cap, its unit or its marker.
func apartLines(all []run) (others, lines []run) {
	return apartBy(all, func(r run) bool { return isLines(r.Row.Instr) || isLines(r.Row.ToolDesc) })
}

func isLines(kind string) bool { return strings.HasPrefix(kind, string(lab.Lines)+":") }

// linesOf is what a client kept of one text of several lines: all of it
// (LinesAll), or its first line alone (LinesFirst), with the line break
// after it or not; "" when kept was cut anywhere else.
func linesOf(text string, kept int, full bool) (lines string, lineBreak bool) {
	first, _, _ := strings.Cut(text, "\n")
	n := utf8.RuneCountInString(first)
	switch {
	case full:
		return profiles.LinesAll, false
	case kept == n:
		return profiles.LinesFirst, false
	case kept == n+1:
		return profiles.LinesFirst, true
	}
	return "", false
}

// agreeLines folds the runs' readings of linesOf: "" when there are none
// or two runs disagree on what was kept.
type agreeLines struct {
	lines     string
	lineBreak bool
	n         int
	split     bool
}

func (a *agreeLines) add(lines string, lineBreak bool) {
	if a.n > 0 && (lines != a.lines || lineBreak != a.lineBreak) {
		a.split = true
	}
	a.lines, a.lineBreak, a.n = lines, lineBreak, a.n+1
}

func (a agreeLines) result() (string, bool) {
	if a.split || a.lines == "" {
		return "", false
	}
	return a.lines, a.lineBreak
}

// deriveLines says what the client kept of the instructions of several
// lines in the first request of the runs of an instructions lines row
// (linesOf); "" when no run used the text or the runs disagree.
func deriveLines(runs []run) (string, bool) {
	var a agreeLines
	for _, r := range runs {
		if !isLines(r.Row.Instr) || r.First == nil || r.First.Best() == nil {
			continue
		}
		b := r.First.Best()
		a.add(linesOf(r.text(b.Reply), b.Kept, b.Full))
	}
	return a.result()
}

// deriveToolLines says the same of the tool descriptions of several lines
// (a tool_description lines row) in the runs' first requests, from each
// such description that reached the model; "" when none did.
func deriveToolLines(runs []run) (string, bool) {
	var a agreeLines
	for _, r := range runs {
		if !isLines(r.Row.ToolDesc) {
			continue
		}
		for _, t := range r.Tools {
			if text := serverTool(r.Result, t.Name); t.Found && strings.Contains(text, "\n") {
				a.add(linesOf(text, t.Kept, t.Full))
			}
		}
	}
	return a.result()
}
