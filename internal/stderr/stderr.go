// Package stderr picks, from what a failed program wrote to stderr, the
// lines that say why: one rule for every failure reason instrlab prints
// (check's details of a server that exits, run's reasons for a server or
// a client that failed).
package stderr

import (
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/instrlab/instrlab/internal/unit"
)

// First is how many lines Lines keeps from the first line that reads as
// an error; the last line comes after them.
const First = 3

// MaxRead bounds what of a program's stderr a reason is picked from: a
// reader of a stderr file or log reads no more than this.
const MaxRead = 256 << 10

// lineRunes is how much of one line Lines keeps.
const lineRunes = 160

// Sep joins the lines of a quote: a line break shown on one line.
const Sep = " ⏎ "

var (
	errorRE = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(error|invalid|unknown|cannot|can't|missing|unexpected|unsupported|not found|failed|fatal|panic)\b|[a-z](Error|Exception)\b`)
	})
	// frameRE is a line of a stack trace: Node's "at f (file:1:2)",
	// Python's "File "x.py", line 3", Go's "\tmain.go:12 +0x1d"; and the
	// source line with its caret that Node prints above the error.
	frameRE = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^(at .*|File ".*", line \d+.*|\S+\.go:\d+( \+0x[0-9a-f]+)?|\^+|throw \w+;)$`)
	})
)

// Lines picks the lines of text, a program's stderr, that say why it
// failed: from the first line that reads as an error (else from the
// first line), up to First lines that are not stack frames, then, when
// it is not among them, the last line (often a usage line or the final
// error), after a line that says how many were left out. Blank lines go;
// each line is trimmed and clipped.
func Lines(text string) []string {
	var lines []string
	for _, l := range strings.Split(text, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			lines = append(lines, l)
		}
	}
	if len(lines) == 0 {
		return nil
	}
	from := 0
	for i, l := range lines {
		if errorRE().MatchString(l) && !frameRE().MatchString(l) {
			from = i
			break
		}
	}
	var out []string
	last := from
	for i := from; i < len(lines) && len(out) < First; i++ {
		last = i
		if i > from && frameRE().MatchString(lines[i]) {
			continue
		}
		out = append(out, clip(lines[i]))
	}
	switch end := len(lines) - 1; {
	case last == end:
	case last == end-1:
		out = append(out, clip(lines[end]))
	default:
		out = append(out, fmt.Sprintf("… %d more …", end-last-1), clip(lines[end]))
	}
	return out
}

// Quote is Lines joined by Sep, "" when text has none.
func Quote(text string) string { return strings.Join(Lines(text), Sep) }

func clip(s string) string { return unit.CodePoint.Clip(s, lineRunes) }
