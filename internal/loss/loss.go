// Package loss is what the model loses, on one scale: the severity of a
// loss (broken, degraded, info), the verdict of a client (works,
// degraded, broken, not measured) that its worst loss makes, and the
// severity of a JSON Schema keyword a client drops. check's findings
// (internal/profiles/assess) and run's verdicts (internal/report) both
// say their losses in it.
package loss

import (
	"slices"
	"strconv"
	"strings"
)

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

// Severity is the worst loss a verdict stands for (Of's inverse): Info
// for works, and for not measured.
func (v Verdict) Severity() Severity {
	for _, s := range Severities {
		if Of(s) == v && s != Info {
			return s
		}
	}
	return Info
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

// Rank orders verdicts as the severities that make them: broken first,
// then degraded, works, not measured.
func (v Verdict) Rank() int {
	switch v {
	case VerdictBroken:
		return 0
	case VerdictDegraded:
		return 1
	case Works:
		return 2
	}
	return 3
}

// A Loss is one thing the model loses, as a verdict says it: its
// severity, its kind (check's finding code, "" where none is kept), a
// few words, and the server's tools it holds for (none for a loss of the
// server or its instructions).
type Loss struct {
	Severity Severity
	Kind     string
	Words    string
	Tools    []string
}

// String says the loss with its tools: "tool echo: no content text", "3
// tools: description cut", the words alone for none.
func (l Loss) String() string {
	switch n := len(l.Tools); {
	case n == 1:
		return "tool " + l.Tools[0] + ": " + l.Words
	case n > 1:
		return strconv.Itoa(n) + " tools: " + l.Words
	}
	return l.Words
}

// Decide is the verdict a client's losses make, for check's predictions
// and run's measurements alike: losses of one severity, kind and words
// are one, over their tools together; the worst decides the verdict, and
// the one or two of its severity come first (in the order given, within
// a severity) as because; more counts the others, degraded or worse.
func Decide(ls []Loss) (v Verdict, because []Loss, more int) {
	var all []Loss
	for _, l := range ls {
		i := slices.IndexFunc(all, func(m Loss) bool { return m.Severity == l.Severity && m.Kind == l.Kind && m.Words == l.Words })
		if i < 0 {
			all = append(all, Loss{Severity: l.Severity, Kind: l.Kind, Words: l.Words})
			i = len(all) - 1
		}
		for _, t := range l.Tools {
			if !slices.Contains(all[i].Tools, t) {
				all[i].Tools = append(all[i].Tools, t)
			}
		}
	}
	if len(all) == 0 {
		return Works, nil, 0
	}
	slices.SortStableFunc(all, func(a, b Loss) int { return a.Severity.Rank() - b.Severity.Rank() })
	v = Of(all[0].Severity)
	for _, l := range all {
		switch {
		case l.Severity == Info:
		case l.Severity == all[0].Severity && len(because) < 2:
			because = append(because, l)
		default:
			more++
		}
	}
	return v, because, more
}

// Decides says what decides a verdict in a cell: the first loss of
// because and how many more ("keeps 247 of 1,000 characters of
// instructions (+2)"); "" for none.
func Decides(because []string, more int) string {
	if len(because) == 0 {
		return ""
	}
	s := because[0]
	if n := len(because) - 1 + more; n > 0 {
		s += " (+" + strconv.Itoa(n) + ")"
	}
	return s
}
