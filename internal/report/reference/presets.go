package reference

import (
	"fmt"

	"github.com/instrlab/instrlab/internal/profiles"
)

// PresetsFile is, per client version profiled, the flags a generated
// server reads to adapt its tools' schemas and names to a client (the
// shape of the hand-kept presets such servers ship: top-level unions,
// $ref, unions, formats, the tool-name length), each measured, with what
// showed it and its evidence; a flag no run measured is null.
type PresetsFile struct {
	Meta    CompatMeta        `json:"__meta"`
	Clients map[string]Preset `json:"clients"`
}

// A Preset is one client version's flags. Client is the version as
// name@version, Title as people write it (presets.v2.json; v1 had the
// name alone in client, beside name and version).
type Preset struct {
	Client string `json:"client"`
	Title  string `json:"title"`
	// TopLevelUnions: an input schema whose top level is anyOf or oneOf
	// reaches the model as it is.
	TopLevelUnions Flag `json:"top_level_unions"`
	// Refs: $ref (to $defs) inside an input schema is kept.
	Refs Flag `json:"refs"`
	// Unions: anyOf and oneOf inside an input schema are kept.
	Unions Flag `json:"unions"`
	// Formats: format inside an input schema is kept.
	Formats Flag `json:"formats"`
	// ToolNameLength is the longest tool name, in characters, without
	// the client's prefix, that the model gets whole.
	ToolNameLength Length `json:"tool_name_length"`
	// Evidence is where the profile's runs are kept.
	Evidence string `json:"evidence"`
}

// A Flag is a measured yes or no (null: not measured) and what showed it.
type Flag struct {
	Value *bool  `json:"value"`
	Says  string `json:"says"`
}

// A Length is a measured number of characters (null: not measured), and
// whether it is a bound only (the longest name measured was kept).
type Length struct {
	Value   *int   `json:"value"`
	AtLeast bool   `json:"at_least,omitempty"`
	Says    string `json:"says"`
}

// PresetsOf builds the presets file from the profiles.
func PresetsOf(src Source) PresetsFile {
	out := PresetsFile{Meta: CompatMeta{Command: src.Command, EvidenceBase: evidenceBase(src)}, Clients: map[string]Preset{}}
	for _, p := range src.Profiles {
		out.Clients[p.ID()] = Preset{
			Client: p.ID(), Title: p.Named(),
			TopLevelUnions: keywordFlag(p, true, "anyOf", "oneOf"),
			Refs:           keywordFlag(p, false, "$ref"),
			Unions:         keywordFlag(p, false, "anyOf", "oneOf"),
			Formats:        keywordFlag(p, false, "format"),
			ToolNameLength: nameLength(p),
			Evidence:       evidenceOf(p),
		}
	}
	return out
}

// keywordFlag is true when every keyword was kept (at the top level, or
// inside), false when one was dropped or rewritten, null when one was
// not measured.
func keywordFlag(p profiles.Profile, top bool, keywords ...string) Flag {
	where := "inside an input schema"
	if top {
		where = "at an input schema's top level"
	}
	value, says := true, ""
	for _, kw := range keywords {
		k := p.Surface.Keyword(kw)
		if k == nil || k.Fate(top) == "" {
			return Flag{Says: kw + " " + where + ": " + notMeasured}
		}
		if f := k.Fate(top); f != profiles.FateKept {
			value = false
			says += kw + " " + f + "; "
		} else {
			says += kw + " kept; "
		}
	}
	return Flag{Value: &value, Says: says[:len(says)-2] + " " + where + " (the lab's schema tools)"}
}

func nameLength(p profiles.Profile) Length {
	if b := budgetOf(p, profiles.BudgetName); b != nil && !b.Above && !b.Below {
		n := int(b.Within)
		return Length{Value: &n, Says: "the name budget, bisected: " + budget(*b)}
	}
	n := namesOf(p)
	if n == nil {
		return Length{Says: notMeasured}
	}
	longest := 0
	for _, l := range n.Lengths {
		if l.Fate == profiles.FateKept && l.Chars > longest {
			longest = l.Chars
		}
	}
	if longest == 0 {
		return Length{Says: "no long name was kept whole: " + nameLengths(p)}
	}
	return Length{Value: &longest, AtLeast: true, Says: fmt.Sprintf("a %d-character name was kept whole: %s", longest, nameLengths(p))}
}
