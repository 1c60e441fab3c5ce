package assess

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/instrlab/instrlab/internal/loss"
	"github.com/instrlab/instrlab/internal/probe"
	"github.com/instrlab/instrlab/internal/profiles"
	"github.com/instrlab/instrlab/internal/table"
	"github.com/instrlab/instrlab/internal/unit"
)

// A SurfaceFate is what a profile's surface (profiles.Surface, measured
// in runs of the surface matrix) predicts of one of the server's tools:
// the name the client gives it, what its input schema loses, and, for a
// tool with an output schema, what of its results reaches the model.
type SurfaceFate struct {
	Tool string `json:"tool"`
	// Name is the client's name for the tool (its prefix and the
	// server's name before it), Chars its length; Name is "" and Chars
	// the tool's own name's length when the client's prefix was not
	// measured (a tool-name budget of a client that names its tools in
	// a text). NameFate "kept",
	// "cut", "rewritten", "dropped" or "not measured", NameNote the
	// measurement it comes from. CutTo is the length a cut leaves.
	Name     string `json:"name"`
	Chars    int    `json:"name_chars"`
	NameFate string `json:"name_fate"`
	NameNote string `json:"name_note,omitempty"`
	CutTo    int    `json:"cut_to,omitempty"`
	// Hidden says the name is dropped because the client hides server
	// tools of that name, one of its own; Shadowed, because it offers
	// the tool but runs its own for a call of it (profiles.Reserved).
	Hidden   bool `json:"name_hidden,omitempty"`
	Shadowed bool `json:"name_shadowed,omitempty"`
	// Dropped and Rewritten are the input schema's keywords the client
	// was measured to drop and rewrite, in backquotes, "(top level)"
	// after one at the schema's top level (else inside it), each with
	// its measured example in Examples; Unmeasured those the profile
	// did not measure.
	Dropped    []string `json:"schema_dropped,omitempty"`
	Rewritten  []string `json:"schema_rewritten,omitempty"`
	Examples   []string `json:"schema_examples,omitempty"`
	Unmeasured []string `json:"schema_not_measured,omitempty"`
	// Keywords are Dropped and Rewritten one by one, each with its
	// example, for findings.
	Keywords []KeywordFate `json:"-"`
	// Result, for a tool with an output schema (its results carry
	// structuredContent, and content text beside it), is what of such a
	// result reached the model: "content text", "structuredContent",
	// "both" or "not measured".
	Result string `json:"result,omitempty"`
}

// A KeywordFate is one keyword of an input schema a client drops or
// rewrites: as a message names it ("`title` (top level)"), its fate
// (profiles.FateDropped or FateRewritten) and the measured example.
type KeywordFate struct {
	Words, Fate, Example string
}

// surfaceFates predicts what becomes of each tool of era e, named by
// server, under p; nil when p measured no surface and no tool-name
// budget. With the budget alone, it predicts the tools' names only.
func surfaceFates(p profiles.Profile, e probe.EraResult, server string, ps parsedSchemas) []SurfaceFate {
	s, b := p.Surface, nameBudget(p)
	if s == nil && b == nil {
		return nil
	}
	var names *profiles.Names
	if s != nil {
		names = s.Names
	}
	var out []SurfaceFate
	all := make([]string, len(e.Tools))
	for i, t := range e.Tools {
		all[i] = t.Name
	}
	for _, t := range e.Tools {
		f := SurfaceFate{Tool: t.Name, NameFate: NotMeasured}
		if names != nil || b != nil {
			nameFate(&f, names, b, server, all)
		}
		switch {
		case s != nil && s.Reserved.Hides(t.Name):
			f.NameFate, f.Hidden = profiles.FateDropped, true
			f.NameNote = fmt.Sprintf("the client offers no server tool named %s, a name of its own tools (measured: surface-reserved, %d names served)", t.Name, len(s.Reserved.Measured))
		case s != nil && s.Reserved.Shadows(t.Name):
			f.NameFate, f.Shadowed = profiles.FateDropped, true
			f.NameNote = fmt.Sprintf("the client offers it, but a call of %s runs the client's own tool of that name, never the server's (measured: surface-reserved, %d names served)", t.Name, len(s.Reserved.Measured))
		}
		if s != nil {
			schemaFate(&f, s, ps.of(t.InputSchema))
			if len(t.OutputSchema) > 0 {
				f.Result = resultFate(s)
			}
		}
		out = append(out, f)
	}
	return out
}

func kindWords(kind string) string {
	switch kind {
	case profiles.NameDot:
		return "dots"
	case profiles.NameHyphen:
		return "hyphens"
	case profiles.NameUpper:
		return "upper case"
	case profiles.NamePrefix:
		return "another tool's name starting with it"
	case profiles.NamePrefixed:
		return "another tool's name as its start"
	}
	return "letters outside ASCII"
}

// schemaFate sets what the input schema schema loses under s: each of
// its keywords, at the top level or inside, as s measured that keyword
// there; a keyword inside the value of one s drops goes with it, and is
// not a loss of its own (as profiles are derived, and run measures).
func schemaFate(f *SurfaceFate, s *profiles.Surface, schema *parsedSchema) {
	if len(s.Schema) == 0 || !schema.ok {
		return
	}
	v, keywords := schema.v, schema.keywords
	var dropped []string // where the values of dropped keywords are
	for _, at := range keywords {
		if k := s.Keyword(at.Key); k != nil && k.Fate(at.Top()) == profiles.FateDropped {
			dropped = append(dropped, at.Path+"/"+at.Keyword+"/")
		}
	}
	seen := map[string]bool{}
	for _, at := range keywords {
		if slices.ContainsFunc(dropped, func(d string) bool { return strings.HasPrefix(at.Path+"/", d) }) {
			continue
		}
		top := at.Top()
		where := profiles.KeywordWords(at.Key)
		if top {
			where += " (top level)"
		}
		if seen[where] {
			continue
		}
		seen[where] = true
		k := s.Keyword(at.Key)
		switch fate := ""; {
		case k == nil:
			f.Unmeasured = append(f.Unmeasured, where)
		default:
			fate = k.Fate(top)
			switch fate {
			case "":
				f.Unmeasured = append(f.Unmeasured, where)
			case profiles.FateDropped:
				f.Dropped = append(f.Dropped, where)
			case profiles.FateRewritten:
				if top && k.Became != "" && topValue(v, at.Keyword) == k.Became {
					// Already the value the client rewrites it to
					// (Mastra 2.0.0's draft-07 $schema): kept.
					continue
				}
				f.Rewritten = append(f.Rewritten, where)
			case profiles.FateVaries:
				f.Unmeasured = append(f.Unmeasured, where+": the runs disagree")
				continue
			default:
				continue
			}
			var example string
			if k.Tool != "" {
				example = fmt.Sprintf("%s: %s became %s (%s)", at.Keyword, clip(k.Sent), clip(k.Became), k.Tool)
				f.Examples = append(f.Examples, example)
			}
			f.Keywords = append(f.Keywords, KeywordFate{Words: where, Fate: fate, Example: example})
		}
	}
}

// topValue is the JSON of keyword's value at the top of schema v, "" when
// it has none.
func topValue(v any, keyword string) string {
	m, _ := v.(map[string]any)
	val, ok := m[keyword]
	if !ok {
		return ""
	}
	b, _ := json.Marshal(val)
	return string(b)
}

// clip shortens a measured JSON example for a message.
func clip(s string) string {
	if s == "" {
		return "nothing"
	}
	return unit.CodePoint.Clip(s, 80)
}

// resultFate is what s measured of a result with content text and
// structuredContent, from a tool with an output schema when measured.
func resultFate(s *profiles.Surface) string {
	r := s.Result(profiles.ResultOutSchema)
	if r == nil {
		r = s.Result(profiles.ResultBoth)
	}
	switch {
	case r == nil:
		return NotMeasured
	case r.Content == profiles.FateKept && r.Structured == profiles.FateKept:
		return "both"
	case r.Content == profiles.FateKept && r.Structured == profiles.FateDropped:
		return "content text"
	case r.Content == profiles.FateDropped && r.Structured == profiles.FateKept:
		return "structuredContent"
	case r.Content == profiles.FateDropped && r.Structured == profiles.FateDropped:
		return "neither"
	}
	return NotMeasured + ": the runs disagree"
}

// surfaceFindings reports, for view v, a tool whose name the client
// cuts, renames or drops, whose input schema loses keywords, and whose
// structured results reach the model in one form only; and a tool whose
// name the client's prefix takes past the -max-name rule (a name past
// it on its own is maxNameRule's).
func surfaceFindings(l *findingList, v View, maxName int) {
	for _, f := range v.Surface {
		switch f.NameFate {
		case profiles.FateCut:
			l.of(v, NameCut, f.Tool, "its name is %s: %s", asNamed(f), f.NameNote).tool(f.Tool).lose("name cut")
		case profiles.FateDropped:
			if f.Hidden || f.Shadowed {
				l.of(v, NameReserved, f.Tool, "%s", f.NameNote).tool(f.Tool).lose("not offered: a name of the client's own tools")
				break
			}
			named := fmt.Sprintf("%s as the client names it, %s characters", f.Name, table.Num(f.Chars))
			if f.Name == "" {
				named = fmt.Sprintf("%s characters without the client's prefix, not measured", table.Num(f.Chars))
			}
			l.of(v, NameDropped, f.Tool, "%s: %s; the model cannot call it", named, f.NameNote).tool(f.Tool).lose("not offered, by its name")
		case profiles.FateRewritten:
			l.of(v, NameRenamed, f.Tool, "%s", f.NameNote).tool(f.Tool).lose("renamed")
		}
		if maxName > 0 && f.Chars > maxName && utf8.RuneCountInString(f.Tool) <= maxName {
			l.rule("-max-name", MaxName, f.Tool, "%s characters as the client names it (%s), more than -max-name %s", table.Num(f.Chars), f.Name, table.Num(maxName)).
				tool(f.Tool).lose("name over -max-name with the client's prefix")
			(*l)[len(*l)-1].For = []Holder{{Client: v.Client, Profile: v.Profile, Ways: []string{v.Way}}}
		}
		for _, k := range f.Keywords {
			sev, why := loss.Keyword(k.Words, k.Example)
			how := "dropped from"
			if k.Fate == profiles.FateRewritten {
				how = "rewritten in"
			}
			lost := l.of(v, SchemaLost, f.Tool+" "+k.Words, "%s %s its input schema (measured: %s)", k.Words, how, k.Example).
				tool(f.Tool).at(sev).kinded(k.Words).lose("%s %s its input schema", k.Words, how)
			if sev == loss.Info {
				lost.fix("nothing: %s", why)
			}
		}
		same := slices.ContainsFunc(v.Calls, func(c CallFate) bool { return c.Tool == f.Tool && c.SameData })
		switch {
		case same && (f.Result == "content text" || f.Result == "structuredContent"):
			l.of(v, ResultForm, f.Tool, "the model gets only its %s (measured), and -call found its content text to hold the structuredContent's JSON: the model gets the same data", f.Result).
				tool(f.Tool).at(loss.Info).lose("one form of its result, the same data")
		case f.Result == "content text":
			l.of(v, ResultForm, f.Tool, "it has an output schema, so its results carry structuredContent: the model gets the content text, not the structuredContent (measured)").
				tool(f.Tool).lose("no structuredContent").
				fix("put what the model needs in the content text too")
		case f.Result == "structuredContent":
			l.of(v, ResultForm, f.Tool, "it has an output schema, so its results carry structuredContent: the model gets the structuredContent JSON, not the content text (measured)").
				tool(f.Tool).lose("no content text").
				fix("put what the model needs in structuredContent too")
		}
	}
}

// callFindings reports, for view v, each called tool's result the client
// does not give the model whole, or may not.
func callFindings(l *findingList, v View) {
	for _, f := range v.Calls {
		if f.Shape != "" && f.Form == "neither" {
			l.of(v, ResultRejected, f.Tool, "its result's structuredContent is %s, not an object, and the client gives the model neither part of such a result (measured)", article(f.Shape)).
				tool(f.Tool).lose("no part of its result reaches the model").
				fix("send structuredContent as an object, or leave it out")
			continue
		}
		switch f.Size {
		case SizeCut:
			l.of(v, ResultCut, f.Tool, "its result (its %s: %s characters) is longer than the %s the client gives the model whole (measured); of a longer one: %s", f.Part, table.Num(f.Chars), table.Num(f.Limit), f.Past).
				tool(f.Tool).lose("result of %s characters, over the %s given whole", table.Num(f.Chars), table.Num(f.Limit)).ranked(f.Limit).
				fix("return at most %s characters, or page the result", table.Num(f.Limit))
		case SizeUnit:
			l.of(v, ResultCut, f.Tool, "its result (its %s: %s characters) is within the %s the client gives the model whole if it counts characters, past it if it counts UTF-8 bytes: its unit is %s", f.Part, table.Num(f.Chars), table.Num(f.Limit), NotMeasured).
				tool(f.Tool).lose("result may be cut: the client's unit is %s", NotMeasured).ranked(f.Limit)
		}
	}
}

// asNamed is a tool's name's length as the client names it, for a
// finding: "71 characters as the client names it (mcp__srv__…)", or its
// own name's where the client's prefix was not measured.
func asNamed(f SurfaceFate) string {
	if f.Name == "" {
		return fmt.Sprintf("%s characters without the client's prefix (not measured)", table.Num(f.Chars))
	}
	return fmt.Sprintf("%s characters as the client names it (%s)", table.Num(f.Chars), f.Name)
}

// maxNameRule reports each tool whose own name is longer than -max-name,
// whatever a client puts before it.
func maxNameRule(l *findingList, s Server, maxName int) {
	if maxName <= 0 {
		return
	}
	seen := map[string]bool{}
	for _, e := range []probe.EraResult{s.Legacy, s.Modern} {
		for _, t := range e.Tools {
			if n := utf8.RuneCountInString(t.Name); n > maxName && !seen[t.Name] {
				seen[t.Name] = true
				l.rule("-max-name", MaxName, t.Name, "tool %s's name is %s characters, more than -max-name %s", t.Name, table.Num(n), table.Num(maxName))
			}
		}
	}
}

// resultFact says how long a tool result p's client gives the model
// whole, from its result-size budget measured with nothing set, and what
// the model gets of a longer one; not measured when it has none.
func resultFact(p profiles.Profile) Fact {
	f := Fact{Name: "long tool results", Value: NotMeasured}
	b := countBudget(p, profiles.BudgetResult)
	if b == nil {
		return f
	}
	switch {
	case b.Below:
		f.Value = fmt.Sprintf("not whole even at %s characters", table.Num(int(b.Past)))
	case b.Above:
		f.Value = fmt.Sprintf("whole up to %s characters, the longest measured", table.Num(int(b.Within)))
	default:
		f.Value = fmt.Sprintf("whole up to %s characters", table.Num(int(b.Within)))
	}
	if u, ok := map[string]string{"codepoint": "code points", "utf16": "UTF-16 units", "byte": "UTF-8 bytes"}[b.Counts]; ok {
		f.Value += " (one text block of ASCII text), counted in " + u + " (measured with text outside the BMP as well)"
	} else {
		f.Value += " (one text block of ASCII text; what it counts " + NotMeasured + ")"
	}
	if b.PastBudget != "" && !b.Above {
		f.Value += "; past it " + b.PastBudget
	}
	if b.Model != "" {
		f.Value += " (model " + b.Model + ")"
	}
	f.Measured = true
	return f
}

// surfaceFactName is the name of surfaceFact's fact.
const surfaceFactName = "results, schemas, names"

// surfaceFact says what p measured of the surface, in a line: the
// result forms, the schema keywords dropped or rewritten, the names'
// prefix, and its tool-name budget. It is measured when the surface is;
// a tool-name budget alone predicts the names only.
func surfaceFact(p profiles.Profile) Fact {
	f := Fact{Name: surfaceFactName}
	s, b := p.Surface, nameBudget(p)
	budget := ""
	if b != nil {
		pre := b.Names
		if s != nil && s.Names != nil {
			pre = s.Names
		}
		budget = "names from the tool-name budget (" + budgetWords(*b, pre) + ")"
	}
	switch {
	case s == nil && b != nil:
		f.Value = "results and schemas " + NotMeasured + "; " + budget
		return f
	case s == nil:
		f.Value = NotMeasured
		if p.SurfaceWith != "" {
			f.Value += " with this model (measured with model " + p.SurfaceWith + " only: see its view)"
		}
		return f
	}
	var parts []string
	if s.Result(profiles.ResultBoth) != nil || s.Result(profiles.ResultOutSchema) != nil {
		parts = append(parts, "of content text and structuredContent, the model gets "+resultFate(s))
	}
	if r := s.Result(profiles.ResultImage); r != nil && r.Image != "" {
		parts = append(parts, "an image in a result: "+r.Image)
	}
	var dropped, rewritten []string
	for _, k := range s.Schema {
		name := strings.ReplaceAll(profiles.KeywordWords(k.Keyword), "`", "")
		switch {
		case k.Top == profiles.FateDropped || k.Nested == profiles.FateDropped:
			dropped = append(dropped, name)
		case k.Top == profiles.FateRewritten || k.Nested == profiles.FateRewritten:
			rewritten = append(rewritten, name)
		}
	}
	if len(s.Schema) > 0 {
		parts = append(parts, fmt.Sprintf("of %d schema keywords, dropped: %s; rewritten: %s", len(s.Schema), orNone(dropped), orNone(rewritten)))
	}
	if n := s.Names; n != nil {
		prefix := n.Prefix
		if n.Namespace != "" {
			prefix = "namespace " + n.Namespace
		}
		parts = append(parts, "names behind "+orNone([]string{prefix}))
	}
	if budget != "" {
		parts = append(parts, budget)
	}
	parts = append(parts, textsWords(s.Texts))
	f.Value, f.Measured = strings.Join(parts, "; "), true
	if s.Model != "" {
		f.Value += " (model " + s.Model + ")"
	}
	return f
}

func orNone(ss []string) string {
	if len(ss) == 0 || len(ss) == 1 && ss[0] == "" {
		return "none"
	}
	return strings.Join(ss, ", ")
}

// surfaceLines say what a view's surface predicts of each tool whose
// name, schema or results it changes or did not measure, and how many
// it leaves as the server sent them; of a view whose profile measured
// no surface (its facts say so), only the tools' names, from its
// tool-name budget.
func surfaceLines(fs []SurfaceFate, facts []Fact) []string {
	if len(fs) == 0 {
		return nil
	}
	var out []string
	same := 0
	for _, f := range fs {
		var parts []string
		switch {
		case f.NameFate == profiles.FateKept:
		case f.NameFate == NotMeasured && f.NameNote != "":
			parts = append(parts, "name "+NotMeasured+": "+f.NameNote)
		case f.NameNote != "":
			parts = append(parts, "name "+f.NameNote)
		default:
			parts = append(parts, "name "+f.NameFate)
		}
		if len(f.Dropped) > 0 {
			parts = append(parts, "schema loses "+strings.Join(f.Dropped, ", "))
		}
		if len(f.Rewritten) > 0 {
			parts = append(parts, "schema rewrites "+strings.Join(f.Rewritten, ", "))
		}
		if len(f.Unmeasured) > 0 {
			parts = append(parts, "schema keywords "+NotMeasured+": "+strings.Join(f.Unmeasured, ", "))
		}
		if f.Result != "" && f.Result != "both" {
			parts = append(parts, "of a structured result the model gets "+f.Result)
		}
		if len(parts) == 0 {
			same++
			continue
		}
		name := f.Name
		if name == "" {
			name = "its prefix " + NotMeasured
		}
		out = append(out, fmt.Sprintf("  tool %s (%s): %s", line(f.Tool), line(name), line(strings.Join(parts, "; "))))
	}
	head := fmt.Sprintf("surface: %d of %s keep their name (behind the prefix) and input schema (measured)", same, table.Plural(len(fs), "tool"))
	if i := slices.IndexFunc(facts, func(f Fact) bool { return f.Name == surfaceFactName }); i >= 0 && !facts[i].Measured {
		head = fmt.Sprintf("names: %d of %s keep their name whole (measured by instrlab budget); input schemas and results %s", same, table.Plural(len(fs), "tool"), NotMeasured)
	}
	return append([]string{head}, out...)
}
