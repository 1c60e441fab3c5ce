package assess

import (
	"slices"

	"github.com/instrlab/instrlab/internal/loss"
	"github.com/instrlab/instrlab/internal/profiles"
)

// A fact is a kind of measurement a loss rests on that a way of running
// a client may not have: its runs measured it in the client's default
// way, not in an arm or with a setting (profiles.Expand gives a variant
// its own values only).
type fact string

const (
	factSurface    fact = "what it does with tool names, schemas and results"
	factFailure    fact = "what it does when a server's method fails"
	factWait       fact = "how long it waits for a server"
	factToolLines  fact = "what it keeps of a tool description of several lines"
	factInstrLines fact = "what it keeps of instructions of several lines"
	factProtocol   fact = "what it does with what a server asks and announces"
	factCallTime   fact = "how long it waits for a tool's result"
)

// measuredFacts are the facts profile p measured.
func measuredFacts(p profiles.Profile) map[fact]bool {
	w := startupWait(p, func(string) (string, bool) { return "", false })
	return map[fact]bool{
		factSurface: p.Surface != nil,
		factFailure: len(p.Failures) > 0,
		// How long it waits, as startup-slow and Late read it: a budget
		// or a timeout (whether it waited for a server 8 s late says
		// neither).
		factWait:       w.budget != nil || w.d > 0,
		factToolLines:  p.ToolDescriptions.Lines != "",
		factInstrLines: p.Instructions.Lines != "",
		factProtocol:   p.Protocol != nil,
		factCallTime:   callBudget(p) != nil,
	}
}

// factOf is the fact view v's loss of kind code rests on; "" for one
// every way measures (or none at all).
func factOf(v View, code Code) fact {
	switch code {
	case NameCut, NameDropped, NameReserved, NameRenamed, SchemaLost, ResultForm, ResultRejected, ResultCut:
		return factSurface
	case DropsServer, EndsSession:
		if v.Failure != nil && v.Failure.Measured {
			return factFailure
		}
		if v.Late != "" {
			return factWait
		}
	case StartupSlow:
		return factWait
	case ToolsAdded, TurnNeverEnds:
		return factProtocol
	case CallSlow:
		return factCallTime
	case ToolTruncated:
		if slices.ContainsFunc(v.Tools, func(t ToolFate) bool { return t.FirstLine }) {
			return factToolLines
		}
	case Truncated:
		if v.FirstLine {
			return factInstrLines
		}
	}
	return ""
}

// unmeasuredLoss is the worst loss of view first (its client's own way)
// that rests on a fact view w did not measure, and that w does not
// have: what w would say works only because it did not measure it (a
// tool Gemini CLI hides by its name in its default way, where its
// timeout-1s arm measured no names); false when there is none. A view
// with a measured fact of its own, or with the same loss, says its own.
func unmeasuredLoss(s Server, first, w View, raw []Finding) (loss.Loss, fact, bool) {
	if w.measured == nil || first.measured == nil {
		return loss.Loss{}, "", false
	}
	own := viewLosses(s, w, raw)
	var worst loss.Loss
	var about fact
	for _, l := range viewLosses(s, first, raw) {
		f := factOf(first, Code(l.Kind))
		if l.Severity == loss.Info || f == "" || !first.measured[f] || w.measured[f] {
			continue
		}
		if slices.ContainsFunc(own, func(o loss.Loss) bool { return o.Kind == l.Kind }) {
			continue
		}
		if about == "" || l.Severity.Rank() < worst.Severity.Rank() {
			worst, about = l, f
		}
	}
	return worst, about, about != ""
}

// notMeasuredIn is w's verdict c when w's client loses more in its own
// way (first) by a fact w did not measure: not measured, and why, unless
// c is as bad already.
func notMeasuredIn(s Server, first, w View, raw []Finding, c ClientVerdict) ClientVerdict {
	l, f, ok := unmeasuredLoss(s, first, w, raw)
	if !ok || c.Verdict != loss.Works && c.Verdict.Severity().Rank() <= l.Severity.Rank() {
		return c
	}
	c.Verdict, c.More = loss.VerdictUnknown, 0
	c.Because = []string{string(f) + " is " + NotMeasured + " in this way; in its own: " + l.String()}
	c.Codes = []Code{Code(l.Kind)}
	return c
}
