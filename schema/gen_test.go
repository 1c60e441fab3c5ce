package schema_test

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strings"
	"time"
)

// A generator writes the JSON Schema (draft 2020-12) of a Go type as
// encoding/json encodes it: every named struct a $defs entry, a field
// without omitempty or omitzero required, a slice, map or pointer that
// may be nil also null. A type with its own MarshalJSON must be given in
// custom, or generating fails: its shape cannot be read from its fields.
type generator struct {
	custom map[reflect.Type]map[string]any
	defs   map[string]map[string]any
	names  map[reflect.Type]string
}

var (
	marshaler     = reflect.TypeFor[json.Marshaler]()
	textMarshaler = reflect.TypeFor[interface{ MarshalText() ([]byte, error) }]()
)

func newGenerator(custom map[reflect.Type]map[string]any) *generator {
	c := map[reflect.Type]map[string]any{
		reflect.TypeFor[json.RawMessage](): {"description": "any JSON value, as it was received"},
		reflect.TypeFor[time.Time]():       {"type": "string", "format": "date-time"},
	}
	for t, s := range custom {
		c[t] = s
	}
	return &generator{custom: c, defs: map[string]map[string]any{}, names: map[reflect.Type]string{}}
}

// document is the schema of a whole output: root (a $ref or a combination
// of them) with the $defs it used.
func (g *generator) document(id, title, description string, root map[string]any) map[string]any {
	doc := map[string]any{
		"$schema":     "https://json-schema.org/draft/2020-12/schema",
		"$id":         id,
		"title":       title,
		"description": description,
	}
	for k, v := range root {
		doc[k] = v
	}
	doc["$defs"] = g.defs
	return doc
}

// named is the schema of an output object whose first member is
// "$schema": id, with t's members after it.
func (g *generator) named(id string, t reflect.Type) (map[string]any, error) {
	s, err := g.object(t)
	if err != nil {
		return nil, err
	}
	props := s["properties"].(map[string]any)
	props["$schema"] = map[string]any{"const": id, "description": "the schema this output follows"}
	s["required"] = append([]string{"$schema"}, s["required"].([]string)...)
	return s, nil
}

func (g *generator) schemaOf(t reflect.Type) (map[string]any, error) {
	if s, ok := g.custom[t]; ok {
		return clone(s), nil
	}
	if t.Kind() == reflect.Pointer {
		s, err := g.schemaOf(t.Elem())
		if err != nil {
			return nil, err
		}
		return nullable(s), nil
	}
	if t.Implements(marshaler) || reflect.PointerTo(t).Implements(marshaler) {
		return nil, fmt.Errorf("%s has its own MarshalJSON: give its schema in custom", t)
	}
	if t.Kind() != reflect.String && (t.Implements(textMarshaler) || reflect.PointerTo(t).Implements(textMarshaler)) {
		return map[string]any{"type": "string"}, nil
	}
	switch t.Kind() {
	case reflect.String:
		return map[string]any{"type": "string"}, nil
	case reflect.Bool:
		return map[string]any{"type": "boolean"}, nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return map[string]any{"type": "integer"}, nil
	case reflect.Float32, reflect.Float64:
		return map[string]any{"type": "number"}, nil
	case reflect.Interface:
		return map[string]any{}, nil
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			return map[string]any{"type": []any{"string", "null"}, "contentEncoding": "base64"}, nil
		}
		items, err := g.schemaOf(t.Elem())
		if err != nil {
			return nil, err
		}
		return map[string]any{"type": []any{"array", "null"}, "items": items}, nil
	case reflect.Array:
		items, err := g.schemaOf(t.Elem())
		if err != nil {
			return nil, err
		}
		return map[string]any{"type": "array", "items": items, "minItems": t.Len(), "maxItems": t.Len()}, nil
	case reflect.Map:
		if t.Key().Kind() != reflect.String {
			return nil, fmt.Errorf("%s: a map key that is not a string", t)
		}
		values, err := g.schemaOf(t.Elem())
		if err != nil {
			return nil, err
		}
		return map[string]any{"type": []any{"object", "null"}, "additionalProperties": values}, nil
	case reflect.Struct:
		if t.Name() == "" {
			return g.object(t)
		}
		name, ok := g.names[t]
		if !ok {
			name = g.defName(t)
			g.names[t] = name
			g.defs[name] = nil // taken, so a type that holds itself ends
			s, err := g.object(t)
			if err != nil {
				return nil, err
			}
			g.defs[name] = s
		}
		return map[string]any{"$ref": "#/$defs/" + name}, nil
	}
	return nil, fmt.Errorf("%s: no JSON Schema for kind %s", t, t.Kind())
}

// object is a struct's schema, its members as encoding/json writes them
// (embedded structs' fields promoted, the shallower field winning).
func (g *generator) object(t reflect.Type) (map[string]any, error) {
	props := map[string]any{}
	required := []string{}
	seen := map[string]int{}
	var walk func(t reflect.Type, depth int) error
	walk = func(t reflect.Type, depth int) error {
		for i := range t.NumField() {
			f := t.Field(i)
			tag := f.Tag.Get("json")
			if tag == "-" {
				continue
			}
			name, opts, _ := strings.Cut(tag, ",")
			ft := f.Type
			if f.Anonymous && name == "" {
				et := ft
				if et.Kind() == reflect.Pointer {
					et = et.Elem()
				}
				if et.Kind() == reflect.Struct {
					if err := walk(et, depth+1); err != nil {
						return err
					}
					continue
				}
			}
			if !f.IsExported() {
				continue
			}
			if name == "" {
				name = f.Name
			}
			if d, ok := seen[name]; ok && d <= depth {
				continue
			}
			seen[name] = depth
			s, err := g.schemaOf(ft)
			if err != nil {
				return fmt.Errorf("%s.%s: %w", t, f.Name, err)
			}
			if strings.Contains(opts, "string") {
				s = map[string]any{"type": "string"}
			}
			props[name] = s
			if !strings.Contains(opts, "omitempty") && !strings.Contains(opts, "omitzero") {
				required = append(required, name)
			}
		}
		return nil
	}
	if err := walk(t, 0); err != nil {
		return nil, err
	}
	sort.Strings(required)
	return map[string]any{"type": "object", "properties": props, "required": required}, nil
}

// defName names t's definition by its Go name, with its package's where
// two types of one name meet (the comparison of versions does not read
// these names: it follows the $refs).
func (g *generator) defName(t reflect.Type) string {
	if _, taken := g.defs[t.Name()]; !taken {
		return t.Name()
	}
	pkg := t.PkgPath()
	return pkg[strings.LastIndex(pkg, "/")+1:] + "." + t.Name()
}

func nullable(s map[string]any) map[string]any {
	switch ty := s["type"].(type) {
	case string:
		s["type"] = []any{ty, "null"}
		return s
	case []any:
		for _, x := range ty {
			if x == "null" {
				return s
			}
		}
		s["type"] = append(ty, "null")
		return s
	}
	if len(s) == 0 {
		return s
	}
	return map[string]any{"anyOf": []any{s, map[string]any{"type": "null"}}}
}

func clone(s map[string]any) map[string]any {
	b, _ := json.Marshal(s)
	var c map[string]any
	json.Unmarshal(b, &c)
	return c
}
