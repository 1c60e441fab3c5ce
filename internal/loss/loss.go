// Package loss is what the model loses, on one scale: the severity of a
// loss (broken, degraded, info), the verdict of a client (works,
// degraded, broken, not measured) that its worst loss makes, and the
// severity of a JSON Schema keyword a client drops. check's findings
// (internal/profiles/assess) and run's verdicts (internal/report) both
// say their losses in it.
package loss

import "strings"

// A Severity is what the model loses: the one scale of check's
// findings, problems and verdicts and of run's verdicts. check's
// finding codes each carry theirs (assess.Doc.Severity), with the reason.
type Severity string

// The severities, from the worst.
const (
	// Broken: the model loses the server, a tool, or every instruction.
	Broken Severity = "broken"
	// Degraded: the model loses part of what it needs, or gets it
	// changed: a cut text, a result part dropped, a constraint of an
	// input schema dropped or rewritten.
	Degraded Severity = "degraded"
	// Info: nothing the model needs is lost (a keyword no model reads,
	// a renamed tool whose calls still arrive), or a note.
	Info Severity = "info"
)

// Severities lists them from the worst.
var Severities = []Severity{Broken, Degraded, Info}

// Rank orders severities: 0 for the worst.
func (s Severity) Rank() int {
	switch s {
	case Broken:
		return 0
	case Degraded:
		return 1
	}
	return 2
}

// Worse reports whether s is worse than t.
func (s Severity) Worse(t Severity) bool { return s.Rank() < t.Rank() }

// A Verdict is what a client does with a server in one word: it works,
// it is degraded or broken (the worst severity of what the model loses
// there), or it was not measured.
type Verdict string

// The verdicts.
const (
	Works           Verdict = "works"
	VerdictDegraded Verdict = "degraded"
	VerdictBroken   Verdict = "broken"
	VerdictUnknown  Verdict = "not measured"
)

// Of is the verdict of a client whose worst loss is s.
func Of(s Severity) Verdict {
	switch s {
	case Broken:
		return VerdictBroken
	case Degraded:
		return VerdictDegraded
	}
	return Works
}

// harmlessKeywords are the JSON Schema keywords whose loss changes
// nothing a model needs to call a tool right: annotations for people and
// validators (a dialect, an identifier, a comment, a title beside the
// description, examples) and a default the server applies itself.
var harmlessKeywords = map[string]string{
	"$schema":          "names the dialect, which no model reads",
	"$id":              "names the schema, which no model reads",
	"$comment":         "a comment for people",
	"$anchor":          "a name for a reference",
	"title":            "a label; the description says what the model needs",
	"examples":         "examples, not a constraint",
	"default":          "the server applies its default; the model need not know it",
	"deprecated":       "an annotation, not a constraint",
	"readOnly":         "an annotation, not a constraint",
	"writeOnly":        "an annotation, not a constraint",
	"contentMediaType": "an annotation, not a constraint",
	"contentEncoding":  "an annotation, not a constraint",
}

// Keyword is the severity of an input schema's keyword (as a
// message names it: "`title` (top level)") dropped or rewritten, and
// why: Info for a keyword no model needs, else Degraded, since the model
// no longer sees a constraint or a structure it needs (enum, pattern,
// const, bounds, required, a union of types, $ref). A const rewritten
// as a one-value enum keeps its constraint, and is Info too.
func Keyword(words, example string) (Severity, string) {
	name := strings.TrimPrefix(words, "`")
	name, _, _ = strings.Cut(name, "`")
	if why, ok := harmlessKeywords[name]; ok {
		return Info, why
	}
	if name == "const" && strings.Contains(example, `{"enum":[`) {
		return Info, "rewritten as an enum of its one value: the same constraint"
	}
	// An example reads "KEYWORD: SENT became BECAME (TOOL)": a client
	// that writes the keyword into the description keeps it as text.
	if _, became, ok := strings.Cut(example, " became "); ok && strings.Contains(became, `"description":"`) && strings.Contains(became, name+":") {
		return Info, "written into the description as text: the model still reads it"
	}
	return Degraded, "the model no longer sees a constraint or a structure of the input it needs"
}
