package derive

import (
	"fmt"
	"slices"

	"github.com/instrlab/instrlab/internal/matrix"
	"github.com/instrlab/instrlab/internal/profiles"
	"github.com/instrlab/instrlab/internal/table"
)

// deriveTools reads the cap on tool descriptions from what became of each
// tool's description in the first request of the plain runs (the
// Result's Tools, located where the run recorded the server's tools: runs
// of a user's server behind the proxy). Runs of the lab record none.
func deriveTools(runs []run) (profiles.Limit, []string) {
	l := profiles.Limit{Unit: profiles.UnitCodepoint}
	var cut []matrix.ToolFacts
	whole, nameOnly, seen := 0, 0, 0
	for _, r := range runs {
		if !r.plain() {
			continue
		}
		for _, t := range r.Tools {
			seen++
			switch {
			case t.Via == matrix.ViaNameOnly:
				nameOnly++
			case t.Found && t.Full:
				whole++
				l.AtLeast = max(l.AtLeast, t.Sent)
			case t.Found:
				cut = append(cut, t)
			}
		}
	}
	un := []string{"the cap and marker on tool descriptions"}
	switch {
	case seen == 0:
		l.Note = "Not measured: the runs recorded no tool descriptions of the server (runs of the lab do not; runs of a server behind the proxy do)."
		return l, un
	case len(cut) == 0:
		l.Note = fmt.Sprintf("No tool description was cut: %d arrived whole, up to %s characters; %d were named without their description.", whole, table.Num(l.AtLeast), nameOnly)
		return l, un
	}
	var kept []int
	for _, t := range cut {
		if !slices.Contains(kept, t.Kept) {
			kept = append(kept, t.Kept)
		}
	}
	slices.Sort(kept)
	l.AtLeast, l.Cap, l.Measured, l.Marker = 0, kept[0], len(kept) == 1, cut[0].Suffix
	l.UnitNote = "not measured: counted in code points"
	l.Note = fmt.Sprintf("%d tool descriptions were cut, keeping %v characters; %d arrived whole. The marker is what followed the kept part (up to 20 characters).", len(cut), kept, whole)
	return l, []string{"what the tool description cap counts"}
}
