package schemakw

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestSubs: each way a keyword's value holds schemas gives its kind and
// the paths of its schemas; data, booleans among schemas and keywords not
// known hold none.
func TestSubs(t *testing.T) {
	obj := func(s string) map[string]any {
		var m map[string]any
		if err := json.Unmarshal([]byte(s), &m); err != nil {
			t.Fatal(err)
		}
		return m
	}
	val := func(s string) any {
		var v any
		if err := json.Unmarshal([]byte(s), &v); err != nil {
			t.Fatal(err)
		}
		return v
	}
	for _, tc := range []struct {
		k, v  string
		kind  Kind
		paths []string
	}{
		{"properties", `{"b":{"type":"string"},"a":{}}`, Named, []string{"/properties/a", "/properties/b"}},
		{"dependentSchemas", `{"a":{"required":["b"]}}`, Named, []string{"/dependentSchemas/a"}},
		{"items", `{"type":"string"}`, One, []string{"/items"}},
		{"items", `[{"type":"string"},{"type":"integer"}]`, List, []string{"/items/0", "/items/1"}},
		{"oneOf", `[{"type":"string"},{"type":"integer"}]`, List, []string{"/oneOf/0", "/oneOf/1"}},
		{"anyOf", `[{"type":"string"},true]`, Data, nil},
		{"items", `false`, Data, nil},
		{"default", `{"type":"string"}`, Data, nil},
		{"const", `{"a":1}`, Data, nil},
		{"enum", `[{"a":1}]`, Data, nil},
		{"x-vendor", `{"type":"string"}`, Data, nil},
		{"properties", `{"a":true}`, Data, nil},
	} {
		kind, subs := Subs(tc.k, val(tc.v))
		var paths []string
		for _, s := range subs {
			paths = append(paths, s.Path)
		}
		if kind != tc.kind || !cmp.Equal(paths, tc.paths) {
			t.Errorf("Subs(%s, %s) = %v %v, want %v %v", tc.k, tc.v, kind, paths, tc.kind, tc.paths)
		}
	}
	_, subs := Subs("properties", obj(`{"a":{"type":"string"}}`))
	if want := obj(`{"type":"string"}`); !cmp.Equal(subs[0].Schema, want) {
		t.Errorf("the schema of /properties/a is %v, want %v", subs[0].Schema, want)
	}
}
