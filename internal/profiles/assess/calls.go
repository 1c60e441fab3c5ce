package assess

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/instrlab/instrlab/internal/probe"
	"github.com/instrlab/instrlab/internal/profiles"
	"github.com/instrlab/instrlab/internal/table"
)

// A CallFate is what a profile predicts of the result one tool call of
// check -call returned: which of its parts reaches the model (from the
// result forms the profile's surface measured) and whether its text does
// whole (from the profile's result-size budget). Each "not measured"
// where the profile did not measure it.
type CallFate struct {
	Tool string `json:"tool"`
	// Form is what of the result reaches the model: "content text",
	// "structuredContent", "both", "neither", or "not measured".
	Form string `json:"form"`
	// Size is "whole", "cut" (past the budget: Past says what the model
	// gets), "unit" (within it counted in characters, past it in UTF-8
	// bytes: the unit the client counts in decides, and is not measured)
	// or "not measured"; Limit is the budget, the longest result the
	// client was measured to give whole, in characters of ASCII text.
	Size  string `json:"kept"`
	Limit int    `json:"cap,omitempty"`
	// Counted is the part's length in what the client counts, when the
	// budget's unit was measured and it is past it ("50,001 UTF-16
	// units").
	Counted string `json:"counted,omitempty"`
	Past    string `json:"past,omitempty"`
	// Chars is the length of the part the size was judged on, in
	// characters, and Part which part that is.
	Chars int    `json:"chars,omitempty"`
	Part  string `json:"part,omitempty"`
	// Other are the result's content blocks that are not text (image,
	// resource_link, resource), by type: what becomes of them is not
	// predicted here (docs/surface.md has what each client did with one).
	Other []string `json:"other_blocks,omitempty"`
	// SameData says the result's content text holds its
	// structuredContent's JSON value (probe.CallResult.SameData): one of
	// the two alone gives the model the same data.
	SameData bool `json:"same_data,omitempty"`
	// Shape is the JSON type of a structuredContent that is not an
	// object (probe.CallResult.StructuredType): Form is then what the
	// profile measured of a result of that shape.
	Shape string `json:"shape,omitempty"`
	// Time is what the client does with how long the call took in
	// check, by its call budget (TimeGivesUp, TimeRace, TimeBeyond); ""
	// when it is well within it or none was measured. Took is the call's
	// time, Waits the budget in words, GivesUp what the client does past
	// it.
	Time    string `json:"time,omitempty"`
	Took    string `json:"took,omitempty"`
	Waits   string `json:"waits,omitempty"`
	GivesUp string `json:"gives_up,omitempty"`
}

// The sizes of a CallFate.
const (
	SizeWhole = "whole"
	SizeCut   = "cut"
	SizeUnit  = "unit"
)

// callFates predicts, under p, what becomes of each result calls
// returned; nil when there were none. A call that returned no result
// predicts nothing (its failure is the call's own).
func callFates(p profiles.Profile, calls []probe.CallResult) []CallFate {
	var out []CallFate
	for _, c := range calls {
		if c.Outcome != probe.OutcomeOK {
			continue
		}
		f := CallFate{Tool: c.Tool, Form: NotMeasured, Size: NotMeasured, SameData: c.SameData, Shape: c.StructuredType}
		for _, typ := range slices.Sorted(maps.Keys(c.Blocks)) {
			if typ != "text" {
				f.Other = append(f.Other, typ)
			}
		}
		var part *probe.Size
		f.Form, f.Part, part = callForm(p.Surface, c)
		if part != nil {
			f.Chars = part.Chars
			callSize(&f, p, *part)
		}
		callTime(&f, p, c)
		out = append(out, f)
	}
	return out
}

// callForm is what of result c reaches the model under surface s, by the
// case of its parts, and the part whose length decides whether it
// reaches it whole (the content text, else the structuredContent; the
// content text when both do; none when neither does).
func callForm(s *profiles.Surface, c probe.CallResult) (form, name string, part *probe.Size) {
	switch {
	case c.Text != nil:
		name, part = "content text", c.Text
	case c.Structured != nil:
		name, part = "structuredContent", c.Structured
	default:
		return NotMeasured, "", nil
	}
	rf, missing := resultCase(s, c)
	if rf == nil {
		return missing, name, part
	}
	content := c.Text != nil && rf.Content == profiles.FateKept
	structured := c.Structured != nil && rf.Structured == profiles.FateKept
	switch {
	case c.Text != nil && rf.Content == profiles.FateVaries, c.Structured != nil && rf.Structured == profiles.FateVaries:
		return NotMeasured + ": the runs disagree", name, part
	case content && structured:
		return "both", name, part
	case content:
		return "content text", "content text", c.Text
	case structured:
		return "structuredContent", "structuredContent", c.Structured
	}
	return "neither", "", nil
}

// resultCase is the form s measured of the case of c's parts, or, when s
// did not measure it, what to say instead. A structuredContent that is
// not an object (the specification requires one) is predicted only from
// a measurement of that shape: a client may reject it.
func resultCase(s *profiles.Surface, c probe.CallResult) (*profiles.ResultForm, string) {
	if kase, ok := nonObject[c.StructuredType]; ok {
		if rf := s.Result(kase); kase != "" && rf != nil {
			return rf, ""
		}
		return nil, NotMeasured + ": structuredContent " + article(c.StructuredType)
	}
	var rf *profiles.ResultForm
	switch {
	case c.Text != nil && c.Structured != nil:
		if rf = s.Result(profiles.ResultBoth); rf == nil {
			rf = s.Result(profiles.ResultOutSchema)
		}
	case c.Text != nil:
		rf = s.Result(profiles.ResultContent)
	default:
		rf = s.Result(profiles.ResultStructured)
	}
	return rf, NotMeasured
}

// secondLimit replaces what f says the model gets past the budget by
// what the client was measured to give past its second limit, when n is
// past it; between the two measured lengths, by both.
func secondLimit(f *CallFate, s *profiles.SecondLimit, n probe.Size) {
	if s == nil || f.Size != SizeCut {
		return
	}
	counts := ""
	if s.Counts != "" {
		counts = " (the client counts " + s.Counts + ")"
	}
	switch {
	case n.Chars >= int(s.Past):
		f.Past = fmt.Sprintf("%s (past %s characters%s)", s.PastBudget, table.Num(int(s.Past)), counts)
	case n.Chars > int(s.Within):
		f.Past = fmt.Sprintf("%s, or past a second limit between %s and %s characters%s: %s", f.Past, table.Num(int(s.Within)), table.Num(int(s.Past)), counts, s.PastBudget)
	}
}

// nonObject are the cases measured of a structuredContent that is not an
// object, by its JSON type (probe.CallResult.StructuredType).
var nonObject = map[string]string{
	"null":   profiles.ResultNullStructured,
	"string": profiles.ResultStringStructured,
	"array":  profiles.ResultArrayStructured,
	// A number or a boolean was not measured: no case.
	"number":  "",
	"boolean": "",
}

func article(typ string) string {
	if typ == "array" {
		return "an array"
	}
	if typ == "null" {
		return "null"
	}
	return "a " + typ
}

// callSize judges a part of n against p's result-size budget, measured on
// ASCII text, where characters, UTF-16 units and bytes are one count: a
// part whose bytes are within it is within whatever the unit, one whose
// characters are past it is past it whatever the unit; between, the unit
// decides. Tokens are not judged: a client that counts them (Claude
// Code's second cap) met the budget's ASCII text in characters first.
func callSize(f *CallFate, p profiles.Profile, n probe.Size) {
	b := countBudget(p, profiles.BudgetResult)
	if b == nil {
		return
	}
	defer secondLimit(f, b.Second, n)
	switch {
	case b.Below:
		f.Limit = int(b.Past)
		if n.Chars >= f.Limit {
			f.Size, f.Past = SizeCut, b.PastBudget
		}
		return
	case b.Above:
		f.Limit = int(b.Within)
		if n.Bytes <= f.Limit {
			f.Size = SizeWhole
		}
		return
	}
	f.Limit = int(b.Within)
	counted, measured := map[string]int{"codepoint": n.Chars, "utf16": n.UTF16, "byte": n.Bytes}[b.Counts]
	switch {
	case measured && counted <= f.Limit:
		f.Size = SizeWhole
	case measured:
		f.Size, f.Past = SizeCut, b.PastBudget
		if counted == n.Chars {
			break // as many as its characters: nothing to add
		}
		f.Counted = fmt.Sprintf("%s %s", table.Num(counted), map[string]string{"codepoint": "code points", "utf16": "UTF-16 units", "byte": "bytes"}[b.Counts])
	case n.Bytes <= f.Limit:
		f.Size = SizeWhole
	case n.Chars > f.Limit:
		f.Size, f.Past = SizeCut, b.PastBudget
	default:
		f.Size = SizeUnit
	}
}

// callLines say what a view predicts of each called tool's result.
func callLines(fs []CallFate) []string {
	var out []string
	for _, f := range fs {
		s := fmt.Sprintf("result of %s: the model gets %s", f.Tool, formWords(f.Form))
		switch f.Size {
		case SizeWhole:
			s += fmt.Sprintf("; its %s of %s characters whole (up to %s measured)", f.Part, table.Num(f.Chars), table.Num(f.Limit))
		case SizeCut:
			counted := ""
			if f.Counted != "" {
				counted = " (" + f.Counted + ", what the client counts)"
			}
			s += fmt.Sprintf("; its %s of %s characters%s not whole, past the %s measured: %s", f.Part, table.Num(f.Chars), counted, table.Num(f.Limit), f.Past)
		case SizeUnit:
			s += fmt.Sprintf("; its %s of %s characters is within the %s measured in characters, past it in UTF-8 bytes: whether the client gives it whole depends on its unit, %s", f.Part, table.Num(f.Chars), table.Num(f.Limit), NotMeasured)
		default:
			if f.Form == NotMeasured {
				s = fmt.Sprintf("result of %s: %s (neither the result's forms nor a result budget)", f.Tool, NotMeasured)
			} else if f.Part != "" {
				s += fmt.Sprintf("; whether its %s of %s characters reaches it whole: %s", f.Part, table.Num(f.Chars), NotMeasured)
			}
		}
		if f.Shape != "" {
			s += "; its structuredContent is " + article(f.Shape) + ", not an object"
		}
		s += timeLine(f)
		if len(f.Other) > 0 {
			s += fmt.Sprintf("; its %s blocks: %s here", strings.Join(f.Other, " and "), NotMeasured)
		}
		out = append(out, s)
	}
	return out
}

func formWords(form string) string {
	switch form {
	case "both":
		return "both its content text and its structuredContent"
	case "content text":
		return "its content text"
	case "structuredContent":
		return "its structuredContent"
	case "neither":
		return "neither its content text nor its structuredContent"
	}
	if strings.HasPrefix(form, NotMeasured+": ") {
		return "which of its parts: " + form
	}
	return "which of its parts: " + NotMeasured
}
