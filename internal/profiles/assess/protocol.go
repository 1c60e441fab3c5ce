package assess

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/instrlab/instrlab/internal/labvocab"
	"github.com/instrlab/instrlab/internal/probe"
	"github.com/instrlab/instrlab/internal/profiles"
	"github.com/instrlab/instrlab/internal/table"
)

// protocolFactName is the name of protocolFact's fact.
const protocolFactName = "protocol"

// protocolFact says what p's client does with what the server in era e
// declares that the protocol matrix measured: tools/list_changed (the
// capability), log messages (the logging capability), tools for an app
// alone (_meta.ui.visibility without "model") and arguments bound to an
// HTTP header (x-mcp-header), and what the server sent while check's
// calls ran (-call: elicitation, sampling, roots, log messages, progress,
// a list change); a feature p did not measure is not measured. No fact
// when the server declares and sends none of them.
func protocolFact(p profiles.Profile, e probe.EraResult, calls []probe.CallResult) []Fact {
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
		say("tools/list_changed", labvocab.FeatureListChanged)
	}
	if slices.Contains(e.Capabilities, "logging") {
		say("log messages", labvocab.FeatureLog)
	}
	if n := countTools(e.Tools, appOnly); n > 0 {
		say(fmt.Sprintf("app-only tools (%s)", table.Num(n)), labvocab.FeatureAppOnly)
	}
	if n := countTools(e.Tools, bindsHeader); n > 0 {
		say(fmt.Sprintf("tools with %s (%s)", labvocab.KeywordHeader, table.Num(n)), labvocab.FeatureHeader)
	}
	// What the server sent while check's calls ran (-call).
	var heard []string
	during := map[string][]string{}
	for _, c := range calls {
		for _, m := range c.Heard {
			if _, ok := heardFeature[m]; !ok {
				continue
			}
			if !slices.Contains(heard, m) {
				heard = append(heard, m)
			}
			if !slices.Contains(during[m], c.Tool) {
				during[m] = append(during[m], c.Tool)
			}
		}
	}
	for _, m := range heard {
		say(fmt.Sprintf("%s (sent during %s)", m, nameList(during[m])), heardFeature[m])
	}
	switch {
	case len(uses) == 0:
		return nil
	case p.Protocol == nil:
		return []Fact{{Name: protocolFactName, Value: NotMeasured + " (the server has " + strings.Join(uses, ", ") + ")"}}
	}
	return []Fact{{Name: protocolFactName, Value: strings.Join(parts, "; "), Measured: true}}
}

// heardFeature is the feature of a request or notification a server sent
// during a call (probe.CallResult.Heard); an elicitation's mode is not
// told by its method: form, the mode every client that elicits declares.
var heardFeature = map[string]string{
	"elicitation/create":               labvocab.FeatureElicitForm,
	"sampling/createMessage":           labvocab.FeatureSampling,
	"roots/list":                       labvocab.FeatureRoots,
	"notifications/message":            labvocab.FeatureLog,
	"notifications/progress":           labvocab.FeatureProgress,
	"notifications/tools/list_changed": labvocab.FeatureListChanged,
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
	raw, ok := t.Meta[labvocab.MetaUI]
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
		if _, ok := p[labvocab.KeywordHeader]; ok {
			return true
		}
	}
	return false
}
