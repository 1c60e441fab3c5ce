package schema_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/instrlab/instrlab/internal/atlas"
	"github.com/instrlab/instrlab/internal/client/clients"
	"github.com/instrlab/instrlab/internal/report"
	"github.com/instrlab/instrlab/internal/table"
	"github.com/instrlab/instrlab/schema"
	"github.com/instrlab/instrlab/schema/schematest"
)

// The first versions of check -json, results.json, diff -json and the
// atlas: what they wrote before 2026-12-06.
var (
	checkV1   = schema.Earlier[0]
	resultsV1 = schema.Earlier[1]
	diffV1    = schema.Earlier[2]
	atlasV1   = schema.Earlier[3]
	compatV1  = schema.Earlier[6]
)

// fixtures are outputs of real runs, kept as they were written (how each
// was made: testdata/README.md). A version's promise is that what it
// wrote then still follows its schema now.
var fixtures = []struct {
	file string
	id   string
}{
	{"testdata/check.json", checkV1},
	{"testdata/check-config.json", checkV1},
	{"testdata/check-unreachable.json", checkV1},
	{"testdata/check-usage-error.json", checkV1},
	{"testdata/check-v2.json", schema.Check},
	{"testdata/check-v2-config.json", schema.Check},
	{"testdata/check-v2-unreachable.json", schema.Check},
	{"testdata/check-v2-usage-error.json", schema.Check},
	{"testdata/results.json", resultsV1},
	{"testdata/results-server.json", resultsV1},
	{"testdata/results-v2.json", schema.Results},
	{"testdata/diff.json", diffV1},
	{"testdata/diff-v2.json", schema.Diff},
	{"testdata/atlas-v1.json", atlasV1},
	{"testdata/compat-v1.json", compatV1},
	{"../docs/reference/compat.json", schema.Compat},
}

func TestFixturesFollowSchemas(t *testing.T) {
	all := slices.Clone(fixtures)
	dirs, err := atlas.Committed("..") // every committed atlas, as the site reads them
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range dirs {
		all = append(all, struct{ file, id string }{"../" + d + "/atlas.json", schema.Atlas})
	}
	for _, f := range all {
		t.Run(filepath.Base(f.file), func(t *testing.T) {
			b, err := os.ReadFile(f.file)
			if err != nil {
				t.Fatal(err)
			}
			var named struct {
				Schema string `json:"$schema"`
			}
			if err := json.Unmarshal(b, &named); err != nil {
				t.Fatal(err)
			}
			if named.Schema != f.id {
				t.Errorf("names schema %q, want %q", named.Schema, f.id)
			}
			if err := schematest.Validate(f.id, b); err != nil {
				t.Error(err)
			}
		})
	}
}

// TestOutputsFollowSchemas validates what the code writes now, from the
// real (trimmed) evidence of internal/report/testdata/diff and the
// committed atlas, with the same writers the commands use.
func TestOutputsFollowSchemas(t *testing.T) {
	dir := "../internal/report/testdata/diff"
	var reps []*report.Report
	for _, run := range []string{"2.1.285", "2.1.328"} {
		m, results, _, err := report.Load(t.Context(), clients.New, filepath.Join(dir, run))
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := report.New(m, results, filepath.Join(dir, run)).Write(&b, "json"); err != nil {
			t.Fatal(err)
		}
		if err := schematest.Validate(schema.Results, b.Bytes()); err != nil {
			t.Errorf("results of %s: %v", run, err)
		}
		rep, _, err := report.Open(t.Context(), clients.New, filepath.Join(dir, run))
		if err != nil {
			t.Fatal(err)
		}
		reps = append(reps, rep)
	}
	d := report.Compare(reps[0], reps[1], report.DiffOptions{Tolerance: 0.1})
	var b bytes.Buffer
	if err := table.JSON(&b, schema.Named(schema.Diff, d)); err != nil {
		t.Fatal(err)
	}
	if err := schematest.Validate(schema.Diff, b.Bytes()); err != nil {
		t.Errorf("diff: %v", err)
	}
	if len(d.Changes) == 0 {
		t.Error("the diff fixture changed nothing: the test would not see a change's shape")
	}
	a, err := atlas.Read(t.Context(), "../atlas/atlas.json")
	if err != nil {
		t.Fatal(err)
	}
	b.Reset()
	if err := a.JSON(&b); err != nil {
		t.Fatal(err)
	}
	if err := schematest.Validate(schema.Atlas, b.Bytes()); err != nil {
		t.Errorf("atlas: %v", err)
	}
	caps, err := a.Capabilities("../atlas", nil)
	if err != nil {
		t.Fatal(err)
	}
	b.Reset()
	if err := caps.JSON(&b); err != nil {
		t.Fatal(err)
	}
	if err := schematest.Validate(schema.Capabilities, b.Bytes()); err != nil {
		t.Errorf("capabilities: %v", err)
	}
	// and the schema refuses a record without its title
	var m map[string]any
	if err := json.Unmarshal(b.Bytes(), &m); err != nil {
		t.Fatal(err)
	}
	delete(m["clients"].(map[string]any)["claude-code"].([]any)[0].(map[string]any), "title")
	bad, _ := json.Marshal(m)
	if err := schematest.Validate(schema.Capabilities, bad); err == nil || !strings.Contains(err.Error(), "title") {
		t.Errorf("capabilities without a title: validation error %v, want one naming title", err)
	}
}

// TestSchemasReject: each schema refuses an output that breaks it, so the
// tests above can fail.
func TestSchemasReject(t *testing.T) {
	tests := []struct {
		name, file, id string
		edit           func(m map[string]any)
		want           string
	}{
		{"another schema named", "testdata/diff-v2.json", schema.Diff,
			func(m map[string]any) { m["$schema"] = schema.Results }, "$schema"},
		{"a required member missing", "testdata/diff-v2.json", schema.Diff,
			func(m map[string]any) { delete(m, "changes") }, "changes"},
		{"a member of the wrong type", "testdata/results-v2.json", schema.Results,
			func(m map[string]any) { m["results"].([]any)[0].(map[string]any)["repeat"] = "one" }, "repeat"},
		{"results.json v1 named v2 (its era, not eras)", "testdata/results.json", schema.Results,
			func(m map[string]any) { m["$schema"] = schema.Results }, "eras"},
		{"an unknown error kind", "testdata/check-usage-error.json", schema.Check,
			func(m map[string]any) { m["error"].(map[string]any)["kind"] = "oops" }, "kind"},
		{"a change point without its version", "../atlas/atlas.json", schema.Atlas,
			func(m map[string]any) {
				delete(m["timelines"].([]any)[0].(map[string]any)["changes"].([]any)[0].(map[string]any), "first")
			}, "first"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := os.ReadFile(tt.file)
			if err != nil {
				t.Fatal(err)
			}
			var m map[string]any
			if err := json.Unmarshal(b, &m); err != nil {
				t.Fatal(err)
			}
			tt.edit(m)
			b, _ = json.Marshal(m)
			err = schematest.Validate(tt.id, b)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("validation error %v, want one naming %q", err, tt.want)
			}
		})
	}
}

// TestBreaking: what the schema test refuses as a break of a published
// version, and what it takes as an addition.
func TestBreaking(t *testing.T) {
	def := func(name string, required []any, props map[string]any) map[string]any {
		return map[string]any{"$ref": "#/$defs/" + name,
			"$defs": map[string]any{name: map[string]any{"type": "object", "required": required, "properties": props}}}
	}
	obj := func(required []any, props map[string]any) map[string]any { return def("T", required, props) }
	str := map[string]any{"type": "string"}
	strOrNull := map[string]any{"type": []any{"string", "null"}}
	old := obj([]any{"a"}, map[string]any{"a": str, "b": str})
	tests := []struct {
		name string
		new  map[string]any
		want int
	}{
		{"the same", obj([]any{"a"}, map[string]any{"a": str, "b": str}), 0},
		{"a property added", obj([]any{"a", "c"}, map[string]any{"a": str, "b": str, "c": str}), 0},
		{"an optional property made required", obj([]any{"a", "b"}, map[string]any{"a": str, "b": str}), 0},
		{"a property gone", obj([]any{"a"}, map[string]any{"a": str}), 1},
		{"a required property made optional", obj([]any{}, map[string]any{"a": str, "b": str}), 1},
		{"a type widened", obj([]any{"a"}, map[string]any{"a": strOrNull, "b": str}), 1},
		{"a definition gone", map[string]any{"$ref": "#/$defs/T", "$defs": map[string]any{}}, 1},
		{"a definition renamed (its Go type moved)", def("other.T", []any{"a"}, map[string]any{"a": str, "b": str}), 0},
	}
	for _, tt := range tests {
		if got := breaking(old, tt.new); len(got) != tt.want {
			t.Errorf("%s: %d breaks %v, want %d", tt.name, len(got), got, tt.want)
		}
	}
}

// TestAddedMembersOptional: a member the Go types gained since a version
// was published is written optional, since that version's earlier
// outputs lack it; the members it promised stay required.
func TestAddedMembersOptional(t *testing.T) {
	str := map[string]any{"type": "string"}
	doc := func(required []any, props map[string]any) map[string]any {
		return map[string]any{"$ref": "#/$defs/T",
			"$defs": map[string]any{"T": map[string]any{"type": "object", "required": required, "properties": props}}}
	}
	old := doc([]any{"a"}, map[string]any{"a": str})
	new := doc([]any{"a", "timing"}, map[string]any{"a": str, "timing": str})
	keepRequired(old, new)
	got := new["$defs"].(map[string]any)["T"].(map[string]any)["required"]
	if diff := cmp.Diff([]any{"a"}, got); diff != "" {
		t.Errorf("required mismatch (-want +got):\n%s", diff)
	}
}
