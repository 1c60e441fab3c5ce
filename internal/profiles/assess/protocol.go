package assess

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/instrlab/instrlab/internal/probe"
	"github.com/instrlab/instrlab/internal/profiles"
	"github.com/instrlab/instrlab/internal/table"
	"github.com/instrlab/instrlab/lab"
)

// protocolFactName is the name of protocolFact's fact.
const protocolFactName = "protocol"

// protocolFact says what p's client does with what the server in era e
// declares that the protocol matrix measured: tools/list_changed (the
// capability), log messages (the logging capability), tools for an app
// alone (_meta.ui.visibility without "model") and arguments bound to an
// HTTP header (x-mcp-header); a feature p did not measure is not
// measured. No fact when the server declares none of them: what the
// server asks while a tool runs (elicitation, sampling, roots) shows only
// in a call, which check does not make for them (docs/protocol.md).
func protocolFact(p profiles.Profile, e probe.EraResult) []Fact {
	var uses, parts []string
	say := func(what, feature string) {
		uses = append(uses, what)
		f, ok := p.Protocol.Fact(feature)
		switch {
		case !ok:
			parts = append(parts, what+": "+NotMeasured)
		case f.Does == profiles.FateVaries:
			parts = append(parts, what+": varies from run to run ("+strings.Join(f.Held, "; ")+")")
		default:
			parts = append(parts, what+": "+f.Does)
		}
	}
	if e.ToolsListChanged {
		say("tools/list_changed", lab.FeatureListChanged)
	}
	if slices.Contains(e.Capabilities, "logging") {
		say("log messages", lab.FeatureLog)
	}
	if n := countTools(e.Tools, appOnly); n > 0 {
		say(fmt.Sprintf("app-only tools (%s)", table.Num(n)), lab.FeatureAppOnly)
	}
	if n := countTools(e.Tools, bindsHeader); n > 0 {
		say(fmt.Sprintf("tools with %s (%s)", lab.KeywordHeader, table.Num(n)), lab.FeatureHeader)
	}
	switch {
	case len(uses) == 0:
		return nil
	case p.Protocol == nil:
		return []Fact{{Name: protocolFactName, Value: NotMeasured + " (the server has " + strings.Join(uses, ", ") + ")"}}
	}
	return []Fact{{Name: protocolFactName, Value: strings.Join(parts, "; "), Measured: true}}
}

func countTools(tools []probe.Tool, is func(probe.Tool) bool) int {
	n := 0
	for _, t := range tools {
		if is(t) {
			n++
		}
	}
	return n
}

// appOnly reports whether t's _meta.ui.visibility (MCP Apps) leaves the
// model out: a list without "model".
func appOnly(t probe.Tool) bool {
	var ui struct {
		Visibility []string `json:"visibility"`
	}
	raw, ok := t.Meta[lab.MetaUI]
	return ok && json.Unmarshal(raw, &ui) == nil && len(ui.Visibility) > 0 && !slices.Contains(ui.Visibility, "model")
}

// bindsHeader reports whether a property of t's input schema has
// x-mcp-header.
func bindsHeader(t probe.Tool) bool {
	var s struct {
		Properties map[string]map[string]json.RawMessage `json:"properties"`
	}
	if json.Unmarshal(t.InputSchema, &s) != nil {
		return false
	}
	for _, p := range s.Properties {
		if _, ok := p[lab.KeywordHeader]; ok {
			return true
		}
	}
	return false
}
