package derive

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/instrlab/instrlab/internal/labvocab"
	"github.com/instrlab/instrlab/internal/matrix"
	"github.com/instrlab/instrlab/internal/matrix/analyze"
	"github.com/instrlab/instrlab/internal/profiles"
	"github.com/instrlab/instrlab/internal/surface"
)

// protocolRuns splits the runs of the protocol matrix's rows from the
// others: they measure what the client does with what a server asks and
// announces, not the lab's surface.
func protocolRuns(all []run) (others, protocol []run) {
	return apartBy(all, func(r run) bool { return protocolRow(r.Row) })
}

// protocolRow reports whether row is one of the protocol matrix's.
func protocolRow(row matrix.Row) bool {
	return slices.Contains(matrix.ProtocolRows, row.Name)
}

// deriveProtocol is what the runs of the protocol rows show, in the
// profile's own arm (base's): per feature, what the client does, in the
// words of surface.ProtocolLines, over the 2025 era (the protocol row) and,
// when the client spoke it to a server of both eras, over 2026-07-28
// (Modern), and both over Streamable HTTP (HTTP, ModernHTTP), and over
// 2026-07-28 what became of its turn after each ask alone (Alone, the
// protocol-asks row); FateVaries
// where the runs disagree, or where some of them lack the feature. A run
// that timed out counts as failed and still tells what the lab's log holds
// whole (protocolLines). nil when none ran.
func deriveProtocol(runs, base []run) *profiles.Protocol {
	runs = surfaceOf(runs, base)
	if len(runs) == 0 {
		return nil
	}
	p := &profiles.Protocol{Runs: len(runs)}
	var legacy, modern, overHTTP, modernHTTP, alone []run
	for _, r := range runs {
		if r.Status != analyze.StatusOK || r.Surface == nil {
			p.Failed++
			if p.Ended == "" {
				p.Ended = r.Reason
				if u, err := strconv.Unquote(r.Observation.ResultError); err == nil {
					p.Ended = u
				}
			}
			if !hung(r) {
				continue
			}
		}
		spoke := r.Surface.Protocol != nil && r.Surface.Protocol.Modern
		switch {
		case r.Row.Name == matrix.ProtocolRow:
			legacy = append(legacy, r)
		case r.Row.Name == matrix.ProtocolHTTPRow:
			overHTTP = append(overHTTP, r)
		case r.Row.Name == matrix.ProtocolModernRow && spoke:
			modern = append(modern, r)
		case r.Row.Name == matrix.ProtocolModernHTTPRow && spoke:
			modernHTTP = append(modernHTTP, r)
		case r.Row.Name == matrix.ProtocolAsksRow && spoke:
			alone = append(alone, r)
		}
	}
	p.Facts, p.Modern, p.HTTP, p.ModernHTTP = protocolFacts(legacy, protocolLines), protocolFacts(modern, protocolLines),
		protocolFacts(overHTTP, protocolLines), protocolFacts(modernHTTP, protocolLines)
	p.Alone = protocolFacts(alone, aloneLines)
	return p
}

// hung reports whether r timed out after calling the protocol tools: its
// turn never ended.
func hung(r run) bool {
	return r.Status == analyze.StatusFailed && strings.HasPrefix(r.Reason, analyze.TimedOut) &&
		r.Surface != nil && r.Surface.Protocol != nil
}

// protocolFacts are the facts of runs, one per feature of their lines.
func protocolFacts(runs []run, lines func(run) []surface.ProtocolLine) []profiles.ProtocolFact {
	var features []string
	held := map[string][]string{}
	for _, r := range runs {
		for _, l := range lines(r) {
			if !slices.Contains(features, l.Feature) {
				features = append(features, l.Feature)
			}
			held[l.Feature] = append(held[l.Feature], l.Does)
		}
	}
	var out []profiles.ProtocolFact
	for _, feature := range features {
		does := held[feature]
		fact := profiles.ProtocolFact{Feature: feature, Does: does[0]}
		if len(does) < len(runs) || slices.ContainsFunc(does, func(d string) bool { return d != fact.Does }) {
			fact.Does, fact.Held = profiles.FateVaries, does
		}
		out = append(out, fact)
	}
	return out
}

// protocolLines are r's lines (surface.ProtocolLines) and its turn's. Of a
// run that hung, only those the lab's log holds whole to the end: what the
// client declared and how it answered each ask (in a retry, for an
// input_required result), the asks that got none named in its turn's line;
// what reached the model needs requests that never came.
func protocolLines(r run) []surface.ProtocolLine {
	f := r.Surface
	lines := surface.ProtocolLines(f.Protocol, f.Calls, f.Tools, f.NotCalled)
	if !hung(r) {
		return append(lines, surface.ProtocolLine{Feature: labvocab.FeatureTurn, Does: labvocab.DoesTurnEnds})
	}
	var kept []surface.ProtocolLine
	var open []string
	for _, l := range lines {
		switch l.Feature {
		case labvocab.FeatureDeclared, labvocab.FeatureElicitForm, labvocab.FeatureElicitURL, labvocab.FeatureSampling, labvocab.FeatureRoots:
			kept = append(kept, l)
			if strings.HasSuffix(l.Does, labvocab.DoesNoAnswer) {
				open = append(open, l.Feature)
			}
		}
	}
	does := labvocab.DoesTurnNeverEnds
	if len(open) > 0 {
		does += "; no answer to " + strings.Join(open, ", ")
	}
	return append(kept, surface.ProtocolLine{Feature: labvocab.FeatureTurn, Does: does})
}

// aloneLines are what became of r's turn after each ask its tool made
// alone, in a turn of its own (the protocol-asks row), per ask feature:
// the model got the call's result (its turn went on), the turn ended
// without it, or the run timed out waiting for it. An ask whose tool the
// run did not call (the turn stopped at an earlier one, or the client
// offered none) has no line: not measured.
func aloneLines(r run) []surface.ProtocolLine {
	var out []surface.ProtocolLine
	for _, a := range labvocab.ProtocolAsks {
		k := slices.IndexFunc(r.Surface.Calls, func(c surface.CallFacts) bool { return c.Tool == a.Tool && c.Reached })
		if k < 0 {
			continue
		}
		l := surface.ProtocolLine{Feature: a.Feature, Does: labvocab.DoesAloneGoesOn}
		switch c := r.Surface.Calls[k]; {
		case c.Following > 0:
		case hung(r):
			l.Does = labvocab.DoesAloneNeverEnds
		default:
			l.Does = labvocab.DoesAloneEnds
		}
		out = append(out, l)
	}
	return out
}

// protocolSays is the evidence line's words on the protocol, "" when not
// measured.
func protocolSays(p *profiles.Protocol) string {
	if p == nil {
		return ""
	}
	return fmt.Sprintf("; what it does with what a server asks and announces from %d runs of the protocol matrix", p.Runs)
}
