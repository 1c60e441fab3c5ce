package labvocab

import (
	"encoding/json"
	"strings"
)

// A SchemaFeature is one feature of JSON Schema 2020-12 that a tool of
// lab.SurfaceSchemas uses in its input schema, alone: Properties are the
// schema's properties, Top its other top-level keywords.
type SchemaFeature struct {
	Name       string
	Keywords   []string // the keywords the feature is about
	Properties string   // JSON object
	Top        string   // JSON object members, without braces; may be empty
}

// SchemaFeatures is the catalogue of lab.SurfaceSchemas, one tool each
// (schema_NAME). PROPDESC in a schema stands for a codeword sentence.
var SchemaFeatures = []SchemaFeature{
	{"anyof", []string{"anyOf"}, `{"value":{"anyOf":[{"type":"string"},{"type":"number"}]}}`, ""},
	{"oneof", []string{"oneOf"}, `{"value":{"oneOf":[{"type":"string","maxLength":3},{"type":"integer"}]}}`, ""},
	{"allof", []string{"allOf"}, `{"value":{"allOf":[{"type":"string"},{"minLength":1}]}}`, ""},
	{"ref", []string{"$ref", "$defs"}, `{"value":{"$ref":"#/$defs/part"}}`, `"$defs":{"part":{"type":"object","properties":{"number":{"type":"string"}}}}`},
	{"enum", []string{"enum"}, `{"value":{"type":"string","enum":["red","green","blue"]}}`, ""},
	{"const", []string{"const"}, `{"value":{"type":"string","const":"fixed"}}`, ""},
	{"format", []string{"format"}, `{"value":{"type":"string","format":"date-time"}}`, ""},
	{"pattern", []string{"pattern"}, `{"value":{"type":"string","pattern":"^[A-Z]{2}-[0-9]{4}$"}}`, ""},
	{"bounds", []string{"minimum", "maximum", "exclusiveMaximum", "multipleOf", "minLength", "maxLength", "minItems", "maxItems", "uniqueItems"},
		`{"count":{"type":"integer","minimum":1,"maximum":10,"exclusiveMaximum":11,"multipleOf":1},"name":{"type":"string","minLength":2,"maxLength":8},"list":{"type":"array","items":{"type":"string"},"minItems":1,"maxItems":3,"uniqueItems":true}}`, ""},
	{"additional", []string{"additionalProperties"}, `{"tags":{"type":"object","additionalProperties":{"type":"string"}}}`, `"additionalProperties":false`},
	{"prefixitems", []string{"prefixItems"}, `{"value":{"type":"array","prefixItems":[{"type":"string"},{"type":"integer"}],"items":false}}`, ""},
	{"nested", []string{"properties"}, `{"value":{"type":"object","properties":{"inner":{"type":"object","properties":{"leaf":{"type":"string"}},"required":["leaf"]}}}}`, ""},
	{"description", []string{"description"}, `{"value":{"type":"string","description":PROPDESC}}`, ""},
	{"default", []string{"default"}, `{"value":{"type":"string","default":"fallback"}}`, ""},
	{"examples", []string{"examples"}, `{"value":{"type":"string","examples":["M3-0412"]}}`, ""},
	{"nullable", []string{"type"}, `{"value":{"type":["string","null"]}}`, ""},
	{"union-items", []string{"items"}, `{"value":{"type":"array","items":{"type":["string","integer"]}}}`, ""},
	{"required", []string{"required"}, `{"value":{"type":"string"}}`, `"required":["value"]`},
	{"not", []string{"not"}, `{"value":{"not":{"type":"null"}}}`, ""},
	{"title", []string{"title"}, `{"value":{"type":"string","title":"Value"}}`, `"title":"Schema title"`},
	{"dialect", []string{"$schema", "$id"}, `{"value":{"type":"string"}}`, `"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"lab://surface/schema"`},
}

// Schema is the feature's input schema, with PROPDESC made propDesc (the
// lab's codeword sentence of the tool).
func (f SchemaFeature) Schema(propDesc string) json.RawMessage {
	desc, _ := json.Marshal(propDesc)
	s := `{"type":"object","properties":` + strings.ReplaceAll(f.Properties, "PROPDESC", string(desc))
	if f.Top != "" {
		s += "," + f.Top
	}
	return json.RawMessage(s + "}")
}
