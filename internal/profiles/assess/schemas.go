package assess

import (
	"encoding/json"

	"github.com/instrlab/instrlab/internal/labvocab"
	"github.com/instrlab/instrlab/internal/probe"
	"github.com/instrlab/instrlab/internal/profiles"
)

// parsedSchemas are the input schemas of a server's tools, parsed once
// for all of its views (about a hundred by default, each reading the
// same tools), by their JSON. It is only read once made, so views may
// share it.
type parsedSchemas map[string]*parsedSchema

// A parsedSchema is what assess reads from one input schema.
type parsedSchema struct {
	ok       bool                 // it is JSON
	v        any                  // its value
	keywords []profiles.KeywordAt // profiles.SchemaKeywords of v
	header   bool                 // a property has x-mcp-header (bindsHeader)
}

// schemasOf parses the input schemas of r's tools in both eras.
func schemasOf(r probe.Result) parsedSchemas {
	ps := parsedSchemas{}
	for _, ts := range [][]probe.Tool{r.Legacy.Tools, r.Modern.Tools} {
		for _, t := range ts {
			if _, ok := ps[string(t.InputSchema)]; !ok {
				ps[string(t.InputSchema)] = parseSchema(t.InputSchema)
			}
		}
	}
	return ps
}

// of is raw parsed: from ps, or now when ps does not hold it (nil holds
// none).
func (ps parsedSchemas) of(raw json.RawMessage) *parsedSchema {
	if p, ok := ps[string(raw)]; ok {
		return p
	}
	return parseSchema(raw)
}

func parseSchema(raw json.RawMessage) *parsedSchema {
	var p parsedSchema
	if len(raw) == 0 || json.Unmarshal(raw, &p.v) != nil {
		return &p
	}
	p.ok = true
	p.keywords = profiles.SchemaKeywords(p.v)
	p.header = bindsHeader(p.v)
	return &p
}

// bindsHeader reports whether a property of input schema v has
// x-mcp-header: v an object whose properties, when it has them, are
// objects (or null), one of them with the keyword.
func bindsHeader(v any) bool {
	m, _ := v.(map[string]any)
	props, _ := m["properties"].(map[string]any)
	found := false
	for _, p := range props {
		switch p := p.(type) {
		case nil:
		case map[string]any:
			if _, ok := p[labvocab.KeywordHeader]; ok {
				found = true
			}
		default:
			return false // not a schema bindsHeader reads
		}
	}
	return found
}
