package profiles

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// Ranges are the version ranges of one client over which a sweep (the
// atlas, atlas/atlas.json) saw every property it reads hold. A
// version without a built-in profile of its own takes the profile of a
// version in the same range: the atlas saw them behave alike.
type Ranges struct {
	Client string `json:"client"`
	// Source names the atlas the ranges were read from, its command and
	// its date.
	Source string `json:"source"`
	// Versions are every published version the sweep selected, oldest
	// first; the ranges are spans of this list.
	Versions []string `json:"versions"`
	Ranges   []Range  `json:"ranges"`
}

// A Range is a span of versions, From to To inclusive, over which every
// property held; Props are those properties, by name.
type Range struct {
	From  string            `json:"from"`
	To    string            `json:"to"`
	Props map[string]string `json:"props"`
}

// rangesFile is where the built-in ranges are embedded; a test keeps it
// equal to atlas/atlas.json.
const rangesFile = "data/atlas/ranges.json"

// BuiltinRanges returns the version ranges shipped with instrlab, one
// entry per client the atlas covers.
func BuiltinRanges() ([]Ranges, error) {
	b, err := data.ReadFile(rangesFile)
	if err != nil {
		return nil, err
	}
	var rs []Ranges
	if err := json.Unmarshal(b, &rs); err != nil {
		return nil, fmt.Errorf("%s: %w", rangesFile, err)
	}
	return rs, nil
}

// index is v's position in the published list, or -1.
func (rs Ranges) index(v string) int { return slices.Index(rs.Versions, v) }

// find is the range that holds version v, and false with a reason when v
// is unknown or lies between two ranges (a change the sweep did not
// narrow down).
func (rs Ranges) find(v string) (Range, error) {
	i := rs.index(v)
	if i < 0 {
		return Range{}, fmt.Errorf("the atlas (%s) does not list %s@%s among the %d published versions it selected (%s to %s)",
			rs.Source, rs.Client, v, len(rs.Versions), rs.Versions[0], rs.Versions[len(rs.Versions)-1])
	}
	for k, r := range rs.Ranges {
		if rs.index(r.From) <= i && i <= rs.index(r.To) {
			return r, nil
		}
		if k+1 < len(rs.Ranges) && rs.index(r.To) < i && i < rs.index(rs.Ranges[k+1].From) {
			return Range{}, fmt.Errorf("the atlas (%s) cannot tell how %s@%s behaves: it lies between %s and %s, where a property changed and the versions between were not run",
				rs.Source, rs.Client, v, r.To, rs.Ranges[k+1].From)
		}
	}
	return Range{}, fmt.Errorf("the atlas (%s) ran no version of %s as early or as late as %s", rs.Source, rs.Client, v)
}

// String is the range as a user reads it: its span and its properties.
func (r Range) String() string {
	var ps []string
	for _, k := range slices.Sorted(maps.Keys(r.Props)) {
		ps = append(ps, k+" "+r.Props[k])
	}
	span := r.From
	if r.To != r.From {
		span += " to " + r.To
	}
	return span + " (" + strings.Join(ps, "; ") + ")"
}
