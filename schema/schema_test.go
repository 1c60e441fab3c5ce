package schema_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/instrlab/instrlab/internal/atlas"
	"github.com/instrlab/instrlab/internal/probe"
	"github.com/instrlab/instrlab/internal/profiles/assess"
	"github.com/instrlab/instrlab/internal/report"
	"github.com/instrlab/instrlab/internal/report/reference"
	"github.com/instrlab/instrlab/schema"
)

var update = flag.Bool("update", false, "rewrite the schemas from the Go types (refused for a change that breaks a published version)")

// custom are the types in outputs that encode themselves.
var custom = map[reflect.Type]map[string]any{
	reflect.TypeFor[probe.Millis]():    {"type": "number", "description": "a duration in milliseconds, one decimal"},
	reflect.TypeFor[reference.Added](): {"anyOf": []any{map[string]any{"type": "string"}, map[string]any{"const": false}}, "description": "a version (\"≤V\": V or before), or false: in no version measured"},
}

// documents generates every schema from the Go types its output is
// written from.
func documents() (map[string]map[string]any, error) {
	docs := map[string]map[string]any{}
	add := func(id, title, desc string, root func(g *generator) (map[string]any, error)) error {
		g := newGenerator(custom)
		r, err := root(g)
		if err != nil {
			return fmt.Errorf("%s: %w", id, err)
		}
		docs[id] = g.document(id, title, desc, r)
		return nil
	}
	errs := []error{
		add(schema.Check, "instrlab check -json",
			"What check -json (-format json) prints: the report, or, when check could not make one, an error object with the exit code.",
			func(g *generator) (map[string]any, error) {
				rep, err := g.named(schema.Check, reflect.TypeFor[assess.Report]())
				if err != nil {
					return nil, err
				}
				return map[string]any{"anyOf": []any{rep, checkError}}, nil
			}),
		add(schema.Results, "instrlab run results.json",
			"results.json of run and report (and their -format json): the results table and every run's result it was built from.",
			func(g *generator) (map[string]any, error) {
				return g.named(schema.Results, reflect.TypeFor[report.ResultsFile]())
			}),
		add(schema.Diff, "instrlab diff -json",
			"What diff -json prints: per row and client (each client compared as its two versions, name@version), what changed between two runs.",
			func(g *generator) (map[string]any, error) {
				return g.named(schema.Diff, reflect.TypeFor[report.Diff]())
			}),
		add(schema.Atlas, "instrlab atlas.json",
			"A sweep's atlas.json (and report -format json on sweeps): per client, the versions probed, what each showed, and where it changed.",
			func(g *generator) (map[string]any, error) {
				return g.named(schema.Atlas, reflect.TypeFor[atlas.Atlas]())
			}),
		add(schema.Capabilities, "instrlab capabilities.json",
			"The atlas site's capabilities.json: per client name, a record per version range in the shape of the community MCP client-capabilities list, with instrlab's measured facts under io.github.instrlab/atlas.",
			func(g *generator) (map[string]any, error) {
				return g.named(schema.Capabilities, reflect.TypeFor[atlas.CapabilitiesFile]())
			}),
		add(schema.Compat, "instrlab compat.json",
			"The client reference's compat.json (docs/reference): every measured fact per client in browser-compat-data's shape, a feature tree whose leaves' __compat.support is keyed by client, and the clients with their releases.",
			func(g *generator) (map[string]any, error) {
				return g.named(schema.Compat, reflect.TypeFor[reference.CompatFile]())
			}),
		add(schema.Presets, "instrlab presets.json",
			"The client reference's presets.json (docs/reference): per client version, the measured flags a generated server adapts its tools' schemas and names to, each with what showed it; null where not measured.",
			func(g *generator) (map[string]any, error) {
				return g.named(schema.Presets, reflect.TypeFor[reference.PresetsFile]())
			}),
	}
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return docs, nil
}

// checkError is the object check -json prints instead of a report.
var checkError = map[string]any{
	"type":     "object",
	"required": []string{"$schema", "error"},
	"properties": map[string]any{
		"$schema": map[string]any{"const": schema.Check},
		"error": map[string]any{
			"type":     "object",
			"required": []string{"exit_code", "kind", "message"},
			"properties": map[string]any{
				"exit_code": map[string]any{"type": "integer", "enum": []any{1, 2, 3}},
				"kind":      map[string]any{"type": "string", "enum": []any{"failure", "usage", "unreachable"}},
				"message":   map[string]any{"type": "string"},
			},
		},
	},
}

func encode(doc map[string]any) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	enc.Encode(doc)
	return b.Bytes()
}

// TestSchemasCurrent holds each committed schema to the Go types of its
// output: a field added to an output is added to its schema by -update;
// a field removed, retyped or made optional is refused, since the
// published version promised it (a new version is a new identifier).
func TestSchemasCurrent(t *testing.T) {
	docs, err := documents()
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range schema.All {
		file := schema.File(id)
		got := encode(docs[id])
		old, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var committed map[string]any
		if err := json.Unmarshal(old, &committed); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		var generated map[string]any
		if err := json.Unmarshal(got, &generated); err != nil {
			t.Fatal(err)
		}
		if breaks := breaking(committed, generated); len(breaks) > 0 {
			t.Errorf("%s: the outputs' Go types break what the published schema promises; keep the field, or publish a new major version under a new identifier (docs/schema.md):\n%s", file, join(breaks))
			continue
		}
		// A member added since the version was published is optional:
		// what that version wrote before lacks it.
		keepRequired(committed, generated)
		got = encode(generated)
		if breaks := breaking(committed, generated); len(breaks) > 0 {
			t.Errorf("%s: the outputs' Go types break what the published schema promises; keep the field, or publish a new major version under a new identifier (docs/schema.md):\n%s", file, join(breaks))
			continue
		}
		if *update {
			if err := os.WriteFile(file, got, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if !bytes.Equal(old, got) {
			t.Errorf("%s is not what the Go types give (go test ./schema -run SchemasCurrent -update) (-want +got):\n%s", file, cmp.Diff(string(old), string(got)))
		}
	}
}

// keepRequired sets, in every object of new that old has too, the
// required members to old's: a member required only in new was added
// since old was published, and old's outputs lack it.
func keepRequired(old, new map[string]any) {
	if len(old) == 0 {
		return
	}
	c := comparison{old: old, new: new, seen: map[[2]string]bool{}, visit: func(o, n map[string]any) {
		if r, ok := o["required"]; ok {
			n["required"] = r
		} else {
			delete(n, "required")
		}
	}}
	c.object("(root)", old, new)
}

func join(s []string) string {
	var b bytes.Buffer
	for _, x := range s {
		b.WriteString("  " + x + "\n")
	}
	return b.String()
}

// breaking lists what new takes away from old: a definition or property
// gone, a property no longer required, a type that allows a value it did
// not (a consumer reads what the version promised; a narrower type keeps
// the promise). An empty old ({}: not yet generated) promises nothing.
func breaking(old, new map[string]any) []string {
	if len(old) == 0 {
		return nil
	}
	c := comparison{old: old, new: new, seen: map[[2]string]bool{}}
	c.object("(root)", old, new)
	return c.out
}

// A comparison walks an old and a new schema side by side from their
// roots, following each side's $refs into its own $defs, so that a
// definition renamed or moved (a Go type now in another package) is no
// break; what a reader can rely on is compared, not how it is spelled.
type comparison struct {
	old, new map[string]any
	seen     map[[2]string]bool
	out      []string
	// visit, when set, is called on each pair of objects compared.
	visit func(old, new map[string]any)
}

func (c *comparison) resolve(doc, s map[string]any) (map[string]any, string) {
	ref, _ := s["$ref"].(string)
	if ref == "" {
		return s, ""
	}
	defs, _ := doc["$defs"].(map[string]any)
	d, _ := defs[strings.TrimPrefix(ref, "#/$defs/")].(map[string]any)
	return d, ref
}

func (c *comparison) object(path string, old, new any) {
	o, _ := old.(map[string]any)
	n, _ := new.(map[string]any)
	o, oref := c.resolve(c.old, o)
	n, nref := c.resolve(c.new, n)
	if oref != "" {
		if c.seen[[2]string{oref, nref}] {
			return
		}
		c.seen[[2]string{oref, nref}] = true
	}
	if n == nil {
		c.out = append(c.out, path+": gone")
		return
	}
	if c.visit != nil && o != nil {
		c.visit(o, n)
	}
	if !narrower(types(n), types(o)) {
		c.out = append(c.out, fmt.Sprintf("%s: type %v is now %v", path, types(o), types(n)))
	}
	nreq := map[string]bool{}
	if rs, ok := n["required"].([]any); ok {
		for _, r := range rs {
			nreq[r.(string)] = true
		}
	}
	if rs, ok := o["required"].([]any); ok {
		for _, r := range rs {
			if !nreq[r.(string)] {
				c.out = append(c.out, fmt.Sprintf("%s: %s is no longer required", path, r))
			}
		}
	}
	op, _ := o["properties"].(map[string]any)
	np, _ := n["properties"].(map[string]any)
	keys := make([]string, 0, len(op))
	for k := range op {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		nv, ok := np[k]
		if !ok {
			c.out = append(c.out, fmt.Sprintf("%s: property %s gone", path, k))
			continue
		}
		c.object(path+"/"+k, op[k], nv)
	}
	if oa, ok := o["anyOf"].([]any); ok {
		na, _ := n["anyOf"].([]any)
		for i := range oa {
			if i >= len(na) {
				c.out = append(c.out, fmt.Sprintf("%s/anyOf/%d: gone", path, i))
				continue
			}
			c.object(fmt.Sprintf("%s/anyOf/%d", path, i), oa[i], na[i])
		}
	}
	if oi, ok := o["items"]; ok {
		c.object(path+"/items", oi, n["items"])
	}
	if oa, ok := o["additionalProperties"].(map[string]any); ok {
		c.object(path+"/*", oa, n["additionalProperties"])
	}
}

// types is a schema's "type" as a sorted list (nil when it has none).
func types(s map[string]any) []string {
	switch t := s["type"].(type) {
	case string:
		return []string{t}
	case []any:
		var out []string
		for _, x := range t {
			out = append(out, x.(string))
		}
		sort.Strings(out)
		return out
	}
	return nil
}

// narrower reports whether every type n allows, o allowed (nil: any).
func narrower(n, o []string) bool {
	if o == nil {
		return true
	}
	if n == nil {
		return false
	}
	for _, x := range n {
		if !slices.Contains(o, x) {
			return false
		}
	}
	return true
}

// TestNamed: Named puts "$schema" first in v's object, v's members after
// it as json.Marshal writes them; v that is not an object, or does not
// encode, is an error.
func TestNamed(t *testing.T) {
	for _, c := range []struct {
		v    any
		want string
	}{
		{struct{}{}, `{"$schema":"id"}`},
		{map[string]any{}, `{"$schema":"id"}`},
		{map[string]any{"a": 1, "b": "<&>"}, `{"$schema":"id","a":1,"b":"\u003c\u0026\u003e"}`},
		{struct {
			X []int `json:"x"`
		}{[]int{1}}, `{"$schema":"id","x":[1]}`},
	} {
		got, err := schema.Named("id", c.v).MarshalJSON()
		if err != nil || string(got) != c.want {
			t.Errorf("Named(%v) = %s, %v; want %s", c.v, got, err, c.want)
		}
	}
	for _, v := range []any{[]int{1}, "x", nil, map[string]any{"c": make(chan int)}} {
		if got, err := schema.Named("id", v).MarshalJSON(); err == nil {
			t.Errorf("Named(%v) = %s, want an error", v, got)
		}
	}
}
