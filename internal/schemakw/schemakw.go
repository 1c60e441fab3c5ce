// Package schemakw knows which keywords of a JSON Schema hold schemas
// (2020-12's, with draft-07's definitions and additionalItems), so that
// what walks a schema names each schema inside it by the same path: the
// comparison of a schema a server sent with the one a client got
// (surface.CompareSchema) and the list of a schema's keywords
// (profiles.SchemaKeywords).
package schemakw

import (
	"maps"
	"slices"
	"strconv"
)

// A Kind is how a keyword's value holds schemas.
type Kind int

const (
	// Data is a value that holds no schema: a keyword not known to hold
	// one, a value that is data (const, default, enum, examples), or a
	// boolean schema.
	Data Kind = iota
	// Named is an object of schemas by name (properties, $defs).
	Named
	// One is a schema (items as an object, not, additionalProperties).
	One
	// List is a list of schemas (anyOf, oneOf, allOf, prefixItems, items
	// as a list).
	List
)

// A Sub is a schema a keyword's value holds, at Path below the schema of
// the keyword: "/properties/a", "/items", "/anyOf/0".
type Sub struct {
	Path   string
	Schema map[string]any
}

var (
	named = map[string]bool{"properties": true, "$defs": true, "definitions": true, "patternProperties": true, "dependentSchemas": true}
	one   = map[string]bool{"items": true, "not": true, "additionalProperties": true, "contains": true, "if": true, "then": true, "else": true,
		"propertyNames": true, "unevaluatedItems": true, "unevaluatedProperties": true, "additionalItems": true}
	list = map[string]bool{"anyOf": true, "oneOf": true, "allOf": true, "prefixItems": true, "items": true}
)

// Subs says how keyword k's value v holds schemas and lists them: by
// name in the order of the names, or in the list's order. A value whose
// schemas are not all objects (a boolean schema among them) is Data:
// compared or listed whole, never inside.
func Subs(k string, v any) (Kind, []Sub) {
	switch val := v.(type) {
	case map[string]any:
		switch {
		case one[k]:
			return One, []Sub{{Path: "/" + k, Schema: val}}
		case named[k]:
			subs := make([]Sub, 0, len(val))
			for _, n := range slices.Sorted(maps.Keys(val)) {
				s, ok := val[n].(map[string]any)
				if !ok {
					return Data, nil
				}
				subs = append(subs, Sub{Path: "/" + k + "/" + n, Schema: s})
			}
			return Named, subs
		}
	case []any:
		if list[k] {
			subs := make([]Sub, 0, len(val))
			for i, x := range val {
				s, ok := x.(map[string]any)
				if !ok {
					return Data, nil
				}
				subs = append(subs, Sub{Path: "/" + k + "/" + strconv.Itoa(i), Schema: s})
			}
			return List, subs
		}
	}
	return Data, nil
}
