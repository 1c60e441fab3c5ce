package fakeapi

import (
	"encoding/json"
	"sort"
	"strings"
)

// fitSchema builds a JSON value that fits schema, for clients that ask for
// structured output (Gemini CLI's routing classifier and next-speaker check
// ask for an object with an enum field). It reads JSON Schema and the
// OpenAPI subset Gemini uses (upper-case types, propertyOrdering). Choices
// are fixed so that runs repeat: the first enum value, the first anyOf
// branch, every property, the minimum for numbers (else 1); strings that are free
// text get text, the reader's line.
func fitSchema(schema json.RawMessage, text string) json.RawMessage {
	var s map[string]any
	if json.Unmarshal(schema, &s) != nil {
		b, _ := json.Marshal(text)
		return b
	}
	budget := 1000 // values, so nested minItems cannot blow up
	b, err := json.Marshal(fit(s, text, 0, &budget))
	if err != nil {
		b, _ = json.Marshal(text)
	}
	return b
}

func fit(s map[string]any, text string, depth int, budget *int) any {
	if depth > 16 || *budget <= 0 {
		return nil
	}
	*budget--
	if v, ok := s["const"]; ok {
		return v
	}
	if e, ok := s["enum"].([]any); ok && len(e) > 0 {
		return e[0]
	}
	for _, k := range []string{"anyOf", "oneOf", "allOf"} {
		if list, ok := s[k].([]any); ok && len(list) > 0 {
			if first, ok := list[0].(map[string]any); ok {
				return fit(first, text, depth+1, budget)
			}
		}
	}
	typ := ""
	switch t := s["type"].(type) {
	case string:
		typ = t
	case []any: // ["string", "null"]
		for _, x := range t {
			if xs, ok := x.(string); ok && xs != "null" {
				typ = xs
				break
			}
		}
	}
	switch strings.ToLower(typ) {
	case "object":
		props, _ := s["properties"].(map[string]any)
		out := map[string]any{}
		for _, k := range propertyOrder(s, props) {
			if p, ok := props[k].(map[string]any); ok {
				out[k] = fit(p, text, depth+1, budget)
			}
		}
		return out
	case "array":
		n := 0
		if m, ok := s["minItems"].(float64); ok && m > 0 {
			n = min(int(m), 8)
		}
		items, _ := s["items"].(map[string]any)
		out := make([]any, 0, n)
		for range n {
			out = append(out, fit(items, text, depth+1, budget))
		}
		return out
	case "integer", "number":
		if m, ok := s["minimum"].(float64); ok {
			return m
		}
		// 1, not 0: clients validate more than their schemas say (Gemini
		// CLI's complexity score must be at least 1, its schema has no
		// minimum).
		return 1
	case "boolean":
		return false
	case "null":
		return nil
	}
	return text
}

// propertyOrder is Gemini's propertyOrdering when given, then the other
// properties sorted.
func propertyOrder(s map[string]any, props map[string]any) []string {
	var out []string
	seen := map[string]bool{}
	if order, ok := s["propertyOrdering"].([]any); ok {
		for _, x := range order {
			if k, ok := x.(string); ok && !seen[k] {
				if _, exists := props[k]; exists {
					out = append(out, k)
					seen[k] = true
				}
			}
		}
	}
	var rest []string
	for k := range props {
		if !seen[k] {
			rest = append(rest, k)
		}
	}
	sort.Strings(rest)
	return append(out, rest...)
}

// fitInput is in with only the properties that the input schema of def (a
// tool definition as a request sent it, in any API's shape) declares; in
// whole when def declares none or is not JSON.
func fitInput(def string, in json.RawMessage) json.RawMessage {
	var d, obj map[string]any
	if json.Unmarshal([]byte(def), &d) != nil || json.Unmarshal(in, &obj) != nil {
		return in
	}
	props, ok := declaredProperties(d, 0)
	if !ok {
		return in
	}
	for k := range obj {
		if _, declared := props[k]; !declared {
			delete(obj, k)
		}
	}
	b, err := json.Marshal(obj)
	if err != nil {
		return in
	}
	return b
}

// declaredProperties finds the input schema's properties in a tool
// definition: under input_schema (Anthropic), parameters (OpenAI, Gemini),
// parametersJsonSchema (Gemini) or function (OpenAI Chat).
func declaredProperties(d map[string]any, depth int) (map[string]any, bool) {
	if depth > 2 {
		return nil, false
	}
	for _, k := range []string{"input_schema", "parameters", "parametersJsonSchema"} {
		if s, ok := d[k].(map[string]any); ok {
			p, ok := s["properties"].(map[string]any)
			return p, ok
		}
	}
	if f, ok := d["function"].(map[string]any); ok {
		return declaredProperties(f, depth+1)
	}
	return nil, false
}
