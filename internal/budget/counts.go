package budget

import (
	"context"
	"fmt"
	"strings"

	"github.com/instrlab/instrlab/internal/table"
	"github.com/instrlab/instrlab/internal/unit"
)

// A sentSize is a text's length in the units a client may count.
type sentSize struct{ cp, utf16, bytes int }

func (s sentSize) in(u unit.Unit) int {
	switch u {
	case unit.UTF16:
		return s.utf16
	case unit.Byte:
		return s.bytes
	}
	return s.cp
}

func (s sentSize) String() string {
	return fmt.Sprintf("%s code points, %s UTF-16 units, %s bytes", table.Num(s.cp), table.Num(s.utf16), table.Num(s.bytes))
}

// countedUnits are the units counts tells apart.
var countedUnits = []unit.Unit{unit.CodePoint, unit.UTF16, unit.Byte}

// counts tells what a client counts a budget in: the search found the
// edge at within ASCII characters (one code point, UTF-16 unit and byte
// each); a second search, of text mostly outside the Basic Multilingual
// Plane (emoji: one code point, two UTF-16 units, four bytes), bisects
// its edge in code points between within/4 and within. at runs n code
// points of it and says what the server sent (sentSize, from the run's
// evidence). The unit is the one in which the last text kept whole is
// within within and the first one not is past it, as with ASCII; none,
// or more than one, leaves it not measured (""), with why in the note.
// near are what the same search found on neighbouring versions with the
// same edge (Search.Near).
func counts(ctx context.Context, within int, near []Found, at func(ctx context.Context, n int) (Outcome, sentSize)) (unit.Unit, string, Found) {
	sizes := map[float64]sentSize{}
	f := Bisect(ctx, Search{Lo: float64(max(within/4, 1)), Hi: float64(within), Resolution: Exact, Next: Halve, Near: near},
		func(ctx context.Context, v float64) Outcome {
			o, s := at(ctx, int(v))
			sizes[v] = s
			return o
		})
	switch {
	case f.Failed != "":
		return "", "not measured: a run of astral text failed (" + f.Failed + ")", f
	case f.Unresolved:
		return "", "not measured: the runs of astral text ran out", f
	}
	w, wok := sizes[f.Within]
	p, pok := sizes[f.Past]
	var fits []unit.Unit
	for _, u := range countedUnits {
		// Past: either the astral run past the edge, or, for a client
		// whole up to within code points of it, the ASCII one (within+1).
		if (f.Below || wok && w.in(u) <= within) && (f.Above || pok && p.in(u) > within) {
			fits = append(fits, u)
		}
	}
	says := fmt.Sprintf("ASCII whole at %s characters; astral text", table.Num(within))
	if wok && !f.Below {
		says += " whole at " + w.String()
	}
	if pok && !f.Above {
		if wok && !f.Below {
			says += ","
		}
		says += " cut at " + p.String()
	}
	if len(fits) == 1 {
		return fits[0], says, f
	}
	names := make([]string, len(fits))
	for i, u := range fits {
		names[i] = u.Plural()
	}
	if len(fits) == 0 {
		return "", "not code points, UTF-16 units or bytes (tokens, or its own count): " + says, f
	}
	return "", "not told apart (" + strings.Join(names, ", ") + "): " + says, f
}
