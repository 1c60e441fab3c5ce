package reference

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/instrlab/instrlab/internal/profiles"
	"github.com/instrlab/instrlab/internal/table"
	"github.com/instrlab/instrlab/internal/unit"
)

// notMeasured is the one word for a value no run measured.
const notMeasured = "not measured"

// amount is n of unit u in words: "2,048 characters", "4,096 UTF-16
// units".
func amount(n int, u string) string {
	if x, err := unit.Parse(u); err == nil && x != unit.CodePoint {
		return table.Num(n) + " " + x.Plural()
	}
	return table.Num(n) + " characters"
}

// kept is what a client keeps of a text under l, in a few words.
func kept(l profiles.Limit) string {
	switch {
	case l.Unsent:
		return "not sent (" + orNot(l.Via) + ")"
	case l.Cap > 0 && l.Whole > 0:
		return fmt.Sprintf("whole up to %s, a longer one cut to %s", amount(l.Whole, l.Unit), amount(l.Cap, l.Unit))
	case l.Cap > 0 && l.Measured:
		return "cut at " + amount(l.Cap, l.Unit)
	case l.Cap > 0:
		return "cut at " + amount(l.Cap, l.Unit) + " (documented, not measured)"
	case l.AtLeast > 0:
		return "whole, up to " + amount(l.AtLeast, "codepoint") + " (the longest sent)"
	}
	return notMeasured
}

// marker is what follows a cut text.
func marker(l profiles.Limit) string {
	switch {
	case l.Marker != "":
		return quote(l.Marker)
	case l.Cap > 0 && l.Measured:
		return "none"
	}
	return notMeasured
}

// instructions is what a client keeps of a server's instructions: none,
// when no request held them.
func instructions(l profiles.Limit, r profiles.Render) string {
	if r.Unused {
		return "none reach the model"
	}
	return kept(l)
}

func quote(s string) string { return `"` + s + `"` }

func orNot(s string) string {
	if s == "" {
		return notMeasured
	}
	return s
}

func lines(l profiles.Limit) string {
	switch l.Lines {
	case "":
		return notMeasured
	case "first":
		if l.LineBreak {
			return "the first line only, with its line break"
		}
		return "the first line only"
	}
	return l.Lines + " lines"
}

func setting(l profiles.Limit) string {
	if l.Setting == nil {
		return "none known"
	}
	return l.Setting.Env
}

// budget is a measured budget in words: "27–28 s; past it, drops the
// server".
func budget(b profiles.Budget) string {
	var span string
	switch {
	case b.Below:
		span = "below " + numbers(b.Unit, b.Past)
	case b.Above:
		span = "at least " + numbers(b.Unit, b.Within)
	default:
		span = numbers(b.Unit, b.Within, b.Past)
	}
	if b.PastBudget != "" && !b.Above {
		span += "; past it, " + b.PastBudget
	}
	return span
}

// numbers writes one number, or a span of two, in unit u: seconds in
// milliseconds when all are under one, to a tenth under ten or when a
// span's ends are in the same second.
func numbers(u string, vs ...float64) string {
	f := func(v float64) string { return table.Num(int(v)) }
	switch {
	case u == "s" && slices.Max(vs) < 1:
		u, f = "ms", func(v float64) string { return fmt.Sprintf("%.0f", v*1000) }
	case u == "s" && slices.Max(vs) < 10:
		f = func(v float64) string { return fmt.Sprintf("%.1f", v) }
	case u == "s" && len(vs) == 2 && math.Round(vs[0]) == math.Round(vs[1]):
		// A span narrower than a second (the call budget's, to a
		// quarter of one either side): whole seconds would not show it.
		f = func(v float64) string { return fmt.Sprintf("%.1f", v) }
	case u == "s":
		f = func(v float64) string { return fmt.Sprintf("%.0f", v) }
	}
	parts := make([]string, len(vs))
	for i, v := range vs {
		parts[i] = f(v)
	}
	return strings.Join(parts, "–") + " " + u
}

// variantBudget is the budget named name measured in the variant w's way
// (its row's model or its arm: Budget.Way), or for its model, nil when
// none was.
func variantBudget(p profiles.Profile, w profiles.Variant, name string) *profiles.Budget {
	for i, b := range p.Budgets {
		if b.Name == name && (b.Way == w.When || b.Way == "" && b.Model != "" && b.Model == w.Model) {
			return &p.Budgets[i]
		}
	}
	return nil
}

// budgetOf is the default way's budget named name, nil when none was
// measured.
func budgetOf(p profiles.Profile, name string) *profiles.Budget {
	for i, b := range p.Budgets {
		if b.Name == name && b.Way == "" && b.Model == "" {
			return &p.Budgets[i]
		}
	}
	return nil
}

func budgetCell(name string) func(profiles.Profile) string {
	return func(p profiles.Profile) string {
		if b := budgetOf(p, name); b != nil {
			return budget(*b)
		}
		return notMeasured
	}
}

// resultCase is the words for a result form's case.
var resultCases = []struct{ id, words string }{
	{profiles.ResultContent, "content text only"},
	{profiles.ResultStructured, "structuredContent only"},
	{profiles.ResultBoth, "content text and structuredContent"},
	{profiles.ResultOutSchema, "both, from a tool with an outputSchema"},
	{profiles.ResultImage, "an image"},
	{profiles.ResultNullStructured, "structuredContent null (invalid)"},
	{profiles.ResultStringStructured, "structuredContent a string (invalid)"},
	{profiles.ResultArrayStructured, "structuredContent an array (invalid)"},
}

// result is what reached the model of a result of case c.
func result(p profiles.Profile, c string) string {
	r := p.Surface.Result(c)
	if r == nil {
		return notMeasured
	}
	var parts []string
	if r.Content != "" {
		parts = append(parts, "text "+r.Content)
	}
	if r.Structured != "" {
		parts = append(parts, "structured "+r.Structured)
	}
	if r.Image != "" {
		parts = append(parts, "image "+r.Image)
	}
	if len(parts) == 0 {
		return "no part measured"
	}
	return strings.Join(parts, ", ")
}

// keywords lists the input-schema keywords whose fate was fate at the
// top level or inside, with where when it was only one of them.
func keywords(p profiles.Profile, fate string) string {
	if p.Surface == nil || len(p.Surface.Schema) == 0 {
		return notMeasured
	}
	var out []string
	for _, k := range p.Surface.Schema {
		top, nested := k.Top == fate, k.Nested == fate
		switch {
		case top && nested, top && k.Nested == "", nested && k.Top == "":
			out = append(out, k.Keyword)
		case top:
			out = append(out, k.Keyword+" (top level)")
		case nested:
			out = append(out, k.Keyword+" (inside)")
		}
	}
	if len(out) == 0 {
		return "none"
	}
	return strings.Join(out, ", ")
}

// schemaFates is the input-schema keywords dropped and rewritten, in one
// cell.
func schemaFates(p profiles.Profile) string {
	if p.Surface == nil || len(p.Surface.Schema) == 0 {
		return notMeasured
	}
	return "dropped: " + keywords(p, profiles.FateDropped) + "; rewritten: " + keywords(p, profiles.FateRewritten)
}

// keywordCounts is how many of the keywords measured a client dropped
// and rewrote, at either level: "3 of 30 dropped, 2 rewritten".
func keywordCounts(p profiles.Profile) string {
	if p.Surface == nil || len(p.Surface.Schema) == 0 {
		return notMeasured
	}
	dropped, rewritten := 0, 0
	for _, k := range p.Surface.Schema {
		switch {
		case k.Top == profiles.FateDropped || k.Nested == profiles.FateDropped:
			dropped++
		case k.Top == profiles.FateRewritten || k.Nested == profiles.FateRewritten:
			rewritten++
		}
	}
	return fmt.Sprintf("%d of %d dropped, %d rewritten", dropped, len(p.Surface.Schema), rewritten)
}

func keywordsMeasured(p profiles.Profile) string {
	if p.Surface == nil || len(p.Surface.Schema) == 0 {
		return notMeasured
	}
	return table.Num(len(p.Surface.Schema))
}

func prefix(p profiles.Profile) string {
	n := namesOf(p)
	switch {
	case n == nil:
		return notMeasured
	case n.Namespace != "":
		return "in namespace " + n.Namespace
	case n.Prefix == "":
		return "none"
	}
	return n.Prefix
}

func namesOf(p profiles.Profile) *profiles.Names {
	if p.Surface == nil {
		return nil
	}
	return p.Surface.Names
}

// nameChars is what became of a name with a kind of character.
func nameChars(kind string) func(profiles.Profile) string {
	return func(p profiles.Profile) string {
		n := namesOf(p)
		if n == nil {
			return notMeasured
		}
		for _, c := range n.Chars {
			if c.Kind == kind {
				if c.Fate == profiles.FateRewritten && c.Name != "" {
					return "rewritten: " + c.Name
				}
				return c.Fate
			}
		}
		return notMeasured
	}
}

// nameLengths is what became of the long names measured.
func nameLengths(p profiles.Profile) string {
	n := namesOf(p)
	if n == nil || len(n.Lengths) == 0 {
		return notMeasured
	}
	var out []string
	for _, l := range n.Lengths {
		s := fmt.Sprintf("%d (%d with the prefix) %s", l.Chars, l.Full, l.Fate)
		if l.Fate == profiles.FateCut {
			s += fmt.Sprintf(" to %d", l.Got)
			if l.Hash {
				s += " and a hash"
			}
		}
		out = append(out, s)
	}
	return strings.Join(out, "; ")
}

func reserved(p profiles.Profile) string {
	if p.Surface == nil || p.Surface.Reserved == nil {
		return notMeasured
	}
	r := p.Surface.Reserved
	var out []string
	if len(r.Hidden) > 0 {
		out = append(out, "hides "+strings.Join(r.Hidden, ", "))
	}
	if len(r.Shadowed) > 0 {
		out = append(out, "runs its own for "+strings.Join(r.Shadowed, ", "))
	}
	if len(out) == 0 {
		return fmt.Sprintf("all %d offered", len(r.Measured))
	}
	return strings.Join(out, "; ") + fmt.Sprintf(" (of %d served)", len(r.Measured))
}

func texts(get func(*profiles.Texts) string) func(profiles.Profile) string {
	return func(p profiles.Profile) string {
		if p.Surface == nil || p.Surface.Texts == nil {
			return notMeasured
		}
		return orNot(get(p.Surface.Texts))
	}
}

func read(t *profiles.Texts) string {
	if t.Read == "" || len(t.ReadTools) == 0 {
		return t.Read
	}
	return t.Read + " (through " + strings.Join(t.ReadTools, ", ") + ")"
}

func probe(p profiles.Profile) string {
	var on []string
	if p.Handshake.ProbeStdio {
		on = append(on, "stdio")
	}
	if p.Handshake.ProbeHTTP {
		on = append(on, "HTTP")
	}
	if len(on) == 0 {
		return "no: initialize first"
	}
	return "server/discover first over " + strings.Join(on, " and ")
}

func slowServer(p profiles.Profile) string {
	s := p.Startup
	switch {
	case s.Waited == nil:
		return notMeasured
	case *s.Waited:
		return "waited for a server held " + s.Held
	}
	return "did not wait for a server held " + s.Held
}

func httpKept(p profiles.Profile) string {
	if p.HTTP == nil {
		return notMeasured
	}
	return instructions(p.HTTP.Instructions, p.HTTP.Render)
}

// approval sums one approval entry up by annotation class: "read-only:
// ran; destructive: refused".
func approval(a profiles.Approval) string {
	var classes []string
	fates := map[string][]string{}
	for _, t := range a.Tools {
		if !slices.Contains(classes, t.Hints) {
			classes = append(classes, t.Hints)
		}
		if !slices.Contains(fates[t.Hints], t.Fate) {
			fates[t.Hints] = append(fates[t.Hints], t.Fate)
		}
	}
	var out []string
	for _, c := range classes {
		out = append(out, "hints "+c+": "+strings.Join(fates[c], " or "))
	}
	s := strings.Join(out, "; ")
	if a.Model != "" {
		s += " (model " + a.Model + ")"
	}
	return s
}

// approvalIn is the approval entry of mode ("" for the matrix's way).
func approvalIn(mode string) func(profiles.Profile) string {
	return func(p profiles.Profile) string {
		if a := p.Approval(mode); a != nil {
			return approval(*a)
		}
		return notMeasured
	}
}

// protocolFact is what a client did with a protocol feature, in the 2025
// era (or, modern, over 2026-07-28).
func protocolFact(feature string, over func(*profiles.Protocol) []profiles.ProtocolFact) func(profiles.Profile) string {
	return func(p profiles.Profile) string {
		if p.Protocol == nil {
			return notMeasured
		}
		facts := over(p.Protocol)
		for _, f := range facts {
			if f.Feature == feature {
				if len(f.Held) > 0 {
					return f.Does + " (" + strings.Join(f.Held, "; ") + ")"
				}
				return f.Does
			}
		}
		return notMeasured
	}
}
