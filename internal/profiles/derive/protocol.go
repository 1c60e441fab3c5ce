package derive

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/instrlab/instrlab/internal/matrix"
	"github.com/instrlab/instrlab/internal/matrix/analyze"
	"github.com/instrlab/instrlab/internal/profiles"
	"github.com/instrlab/instrlab/internal/surface"
)

// protocolRuns splits the runs of the protocol matrix's rows from the
// others: they measure what the client does with what a server asks and
// announces, not the lab's surface.
func protocolRuns(all []run) (others, protocol []run) {
	return apartBy(all, func(r run) bool {
		return r.Row.Name == matrix.ProtocolRow || r.Row.Name == matrix.ProtocolModernRow || r.Row.Name == matrix.ProtocolHTTPRow
	})
}

// deriveProtocol is what the runs of the protocol rows show, in the
// profile's own arm (base's): per feature, what the client does, in the
// words of surface.ProtocolLines, over the 2025 era (the protocol row) and,
// when the client spoke it to a server of both eras, over 2026-07-28
// (Modern), and over Streamable HTTP (HTTP); FateVaries where the runs that ended ok disagree, or where some
// of them lack the feature. nil when none ran.
func deriveProtocol(runs, base []run) *profiles.Protocol {
	runs = surfaceOf(runs, base)
	if len(runs) == 0 {
		return nil
	}
	p := &profiles.Protocol{Runs: len(runs)}
	var legacy, modern, overHTTP []run
	for _, r := range runs {
		if r.Status != analyze.StatusOK || r.Surface == nil {
			p.Failed++
			if p.Ended == "" {
				p.Ended = r.Reason
				if u, err := strconv.Unquote(r.Observation.ResultError); err == nil {
					p.Ended = u
				}
			}
			continue
		}
		switch {
		case r.Row.Name == matrix.ProtocolRow:
			legacy = append(legacy, r)
		case r.Row.Name == matrix.ProtocolHTTPRow:
			overHTTP = append(overHTTP, r)
		case r.Surface.Protocol != nil && r.Surface.Protocol.Modern:
			modern = append(modern, r)
		}
	}
	p.Facts, p.Modern, p.HTTP = protocolFacts(legacy), protocolFacts(modern), protocolFacts(overHTTP)
	return p
}

// protocolFacts are the facts of runs that ended ok, one per feature.
func protocolFacts(runs []run) []profiles.ProtocolFact {
	var features []string
	held := map[string][]string{}
	for _, r := range runs {
		f := r.Surface
		for _, l := range surface.ProtocolLines(f.Protocol, f.Calls, f.Tools, f.NotCalled) {
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

// protocolSays is the evidence line's words on the protocol, "" when not
// measured.
func protocolSays(p *profiles.Protocol) string {
	if p == nil {
		return ""
	}
	return fmt.Sprintf("; what it does with what a server asks and announces from %d runs of the protocol matrix", p.Runs)
}
