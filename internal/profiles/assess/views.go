package assess

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/instrlab/instrlab/internal/table"
	"github.com/instrlab/instrlab/internal/unit"
)

// view writes what one view predicts, in full: the era, what is kept and
// lost and where, the profile's other facts and the tools; a view the
// same as an earlier one is one line naming it.
func (p *printer) view(v View) {
	if v.SameAs != "" {
		p.hang("  ", line(v.Title)+": the same as "+line(v.SameAs))
		return
	}
	switch {
	case v.Era == "":
		p.hang("  ", fmt.Sprintf("%s: nothing (%s)", line(v.Title), v.Why))
	default:
		p.hang("  ", fmt.Sprintf("%s: %s era (%s)", line(v.Title), v.Era, v.Why))
		for _, l := range viewLines(v) {
			p.hang(eraIndent, l)
		}
		for _, l := range factLines(v.Facts) {
			p.hang(eraIndent, l)
		}
		for _, l := range slices.Concat(toolLines(v.Tools), surfaceLines(v.Surface, v.Facts), callLines(v.Calls)) {
			p.hang(eraIndent, l)
		}
	}
	if v.ProfileNote != "" {
		p.hang(eraIndent, "profile: "+v.ProfileNote)
	}
}

// viewLines say what the client keeps of the instructions, what it loses
// and where the rest goes.
func viewLines(v View) []string {
	if !v.Present {
		return []string{"no instructions, so no block in the model's context"}
	}
	if v.Unused {
		return []string{fmt.Sprintf("puts none of the %s characters in the model's context (measured: no model request held the text)", table.Num(v.Chars))}
	}
	capNote := v.CapSource
	if v.Setting != "" {
		capNote += ", " + v.Setting
	}
	capText := table.Num(v.Cap)
	if u, err := unit.Parse(v.CapUnit); err == nil && u != unit.CodePoint {
		capText += " " + u.Plural()
	}
	var out []string
	switch {
	case !v.Truncated && v.Cap == 0 && v.AtLeast >= v.Chars:
		out = append(out, fmt.Sprintf("keeps all %s characters (no text was cut up to %s; a cap above that %s)", table.Num(v.Chars), table.Num(v.AtLeast), NotMeasured))
	case !v.Truncated && v.Cap == 0 && v.AtLeast > 0:
		out = append(out, fmt.Sprintf("keeps all %s characters as far as measured: no text longer than %s was run (%s beyond it)", table.Num(v.Chars), table.Num(v.AtLeast), NotMeasured))
	case !v.Truncated && v.Cap == 0 && !v.CapMeasured:
		out = append(out, fmt.Sprintf("keeps all %s characters (cap %s)", table.Num(v.Chars), NotMeasured))
	case !v.Truncated:
		out = append(out, fmt.Sprintf("keeps all %s characters (cap %s, %s)", table.Num(v.Chars), capText, capNote))
	case v.FirstLine && v.Marker == "":
		out = append(out, fmt.Sprintf("keeps only the first line, %s of %s characters with its line break, no marker (measured: a text of several lines); loses %s",
			table.Num(v.KeptChars), table.Num(v.Chars), table.Num(v.LostChars)))
		out = append(out, fmt.Sprintf("cut: …%s ✂ %s…", oneLine(v.Before), oneLine(v.After)))
		out = append(out, lossLines(v)...)
	default:
		out = append(out, fmt.Sprintf("keeps %s of %s characters (cap %s, %s), then %q; loses %s",
			table.Num(v.KeptChars), table.Num(v.Chars), capText, capNote, v.Marker, table.Num(v.LostChars)))
		out = append(out, fmt.Sprintf("cut: …%s ✂ %s…", oneLine(v.Before), oneLine(v.After)))
		out = append(out, lossLines(v)...)
	}
	return append(out, fmt.Sprintf("in context: %s characters, ~%s tokens, as %s", table.Num(v.BlockChars), table.Num(v.BlockTokens), v.Placement))
}

// lossLines name what a cut loses: the section it cuts into and those
// lost whole.
func lossLines(v View) []string {
	var out []string
	if v.Loss.Cut != nil && v.Loss.Cut.Start == 0 && len(v.Loss.Whole) == 0 {
		out = append(out, fmt.Sprintf("lost: the last %s characters (the text has no headings or paragraphs to name)", table.Num(v.LostChars)))
	} else if v.Loss.Cut != nil {
		out = append(out, fmt.Sprintf("lost: %q loses %s of %s characters", v.Loss.Cut.Title, table.Num(v.Loss.CutLost), table.Num(v.Loss.Cut.Chars())))
	}
	if n := len(v.Loss.Whole); n > 0 {
		var titles []string
		for _, s := range v.Loss.Whole {
			titles = append(titles, strconv.Quote(s.Title))
		}
		if n > 5 {
			titles = append(titles[:5], fmt.Sprintf("and %d more", n-5))
		}
		out = append(out, "lost whole: "+strings.Join(titles, ", "))
	}
	return out
}
