package derive

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/instrlab/instrlab/internal/fakeapi"
	"github.com/instrlab/instrlab/internal/labvocab"

	"github.com/instrlab/instrlab/internal/matrix"
	"github.com/instrlab/instrlab/internal/matrix/analyze"
	"github.com/instrlab/instrlab/internal/profiles"
	"github.com/instrlab/instrlab/internal/surface"
	"github.com/instrlab/instrlab/lab"
)

// schemaDef is the definition of the lab's schema tool of feature name as
// a client sent it: got, compared keyword by keyword with what the lab
// sent.
func schemaDef(t *testing.T, name, got string) surface.ToolDef {
	t.Helper()
	f, ok := schemaFeature("schema_" + name)
	if !ok {
		t.Fatalf("no schema feature %s", name)
	}
	var sent, g any
	if err := json.Unmarshal(f.Schema(""), &sent); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(got), &g); err != nil {
		t.Fatal(err)
	}
	return surface.ToolDef{Tool: "schema_" + name, Via: surface.ViaFirst, Keywords: surface.CompareSchema(sent, g)}
}

// TestDeriveSurface: the surface rows' runs make a profile's surface:
// each result case's form (a call that did not reach the server measures
// nothing; two runs that agree count two), each keyword of the lab's
// schema tools at the top level or inside (kept unless found dropped or
// rewritten; inside a dropped $defs nothing is measured on its own, while
// a keyword dropped inside a oneOf's schema is measured and the oneOf
// kept), and
// the names: the namespace, a long name kept, one cut with a hash, one
// with dots rewritten; or, behind a prefix, a long name never offered.
func TestDeriveSurface(t *testing.T) {
	part := func(name, form string, reached bool) surface.Found {
		return surface.Found{Part: name, SentForm: form, Reached: reached}
	}
	results := analyze.Result{Surface: &analyze.SurfaceFacts{Calls: []surface.CallFacts{
		{Tool: "result_text", Reached: true, Following: 3, Parts: []surface.Found{part("content[0] text", surface.FormText, true)}},
		{Tool: "result_both", Reached: true, Following: 3, Parts: []surface.Found{part("content[0] text", surface.FormText, false), part("structuredContent", surface.FormJSON, true)}},
		{Tool: "result_structured", Reached: false},
	}}}
	schemas := analyze.Result{Surface: &analyze.SurfaceFacts{Tools: []surface.ToolDef{
		schemaDef(t, "pattern", `{"type":"object","properties":{"value":{"type":"string"}}}`),
		schemaDef(t, "ref", `{"type":"object","properties":{"value":{}}}`),
		schemaDef(t, "additional", `{"type":"object","properties":{"tags":{"type":"object","additionalProperties":{"type":"string"}}}}`),
		schemaDef(t, "oneof", `{"type":"object","properties":{"value":{"oneOf":[{"type":"string"},{"type":"integer"}]}}}`),
		{Tool: "schema_enum", Via: surface.ViaNone},
	}}}
	codex := analyze.Result{Surface: &analyze.SurfaceFacts{Tools: []surface.ToolDef{
		{Tool: labvocab.NameLong, Name: labvocab.NameLong, Namespace: "mcp__lab", Via: surface.ViaFirst},
		{Tool: labvocab.NameMax, Name: labvocab.NameMax[:105] + "_d7ee339c3394", Namespace: "mcp__lab", Via: surface.ViaFirst},
		{Tool: labvocab.NameDotted, Name: "name_dotted_case", Namespace: "mcp__lab", Via: surface.ViaFirst},
		{Tool: labvocab.NameUpper, Name: labvocab.NameUpper, Namespace: "mcp__lab", Via: surface.ViaFirst},
	}}}
	rows := func(group lab.SurfaceGroup) matrix.Row { return matrix.Row{Args: lab.Args{Surface: string(group)}} }
	got := deriveSurface([]run{
		{Result: results, Row: rows(lab.SurfaceResults)}, {Result: results, Row: rows(lab.SurfaceResults)},
		{Result: schemas, Row: rows(lab.SurfaceSchemas)}, {Result: codex, Row: rows(lab.SurfaceNames)},
	}, Dirs{}, "")
	want := &profiles.Surface{Runs: 4,
		Results: []profiles.ResultForm{
			{Case: profiles.ResultContent, Tool: "result_text", Runs: 2, Content: "kept"},
			{Case: profiles.ResultBoth, Tool: "result_both", Runs: 2, Content: "dropped", Structured: "kept"},
		},
		Schema: []profiles.SchemaKeyword{
			{Keyword: "$defs", Top: "dropped", Tool: "schema_ref", Sent: `{"part":{"properties":{"number":{"type":"string"}},"type":"object"}}`, Became: `{"properties":{"value":{}},"type":"object"}`},
			{Keyword: "$ref", Nested: "dropped", Tool: "schema_ref", Sent: `"#/$defs/part"`, Became: `{}`},
			{Keyword: "additionalProperties", Top: "dropped", Nested: "kept", Tool: "schema_additional", Sent: "false", Became: `{"properties":{"tags":{"additionalProperties":{"type":"string"},"type":"object"}},"type":"object"}`},
			{Keyword: "maxLength", Nested: "dropped", Tool: "schema_oneof", Sent: "3", Became: `{"type":"string"}`},
			{Keyword: "oneOf", Nested: "kept"},
			{Keyword: "pattern", Nested: "dropped", Tool: "schema_pattern", Sent: `"^[A-Z]{2}-[0-9]{4}$"`, Became: `{"type":"string"}`},
			{Keyword: "properties", Top: "kept"},
			{Keyword: "type", Top: "kept", Nested: "kept"},
			{Keyword: profiles.TypeInteger, Nested: "kept"},
		},
		Names: &profiles.Names{Namespace: "mcp__{server}", Server: "lab",
			Lengths: []profiles.NameLength{
				{Tool: labvocab.NameLong, Chars: 60, Full: 70, Fate: "kept", Got: 70, Name: labvocab.NameLong, Runs: 1},
				{Tool: labvocab.NameMax, Chars: 128, Full: 138, Fate: "cut", Got: 128, Hash: true, Name: labvocab.NameMax[:105] + "_d7ee339c3394", Runs: 1},
			},
			Chars: []profiles.NameChars{
				{Kind: profiles.NameDot, Tool: labvocab.NameDotted, Fate: "rewritten", Name: "name_dotted_case", Runs: 1},
				{Kind: profiles.NameUpper, Tool: labvocab.NameUpper, Fate: "kept", Name: labvocab.NameUpper, Runs: 1},
			}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("surface mismatch (-want +got):\n%s", diff)
	}

	// Behind a prefix: the name of 128 not offered.
	claude := analyze.Result{Surface: &analyze.SurfaceFacts{Tools: []surface.ToolDef{
		{Tool: labvocab.NameLong, Name: "mcp__lab__" + labvocab.NameLong, Via: surface.ViaLater},
		{Tool: labvocab.NameMax, Via: surface.ViaNone},
	}}}
	got = deriveSurface([]run{{Result: claude, Row: rows(lab.SurfaceNames)}}, Dirs{}, "")
	wantNames := &profiles.Names{Prefix: "mcp__{server}__", Server: "lab", Lengths: []profiles.NameLength{
		{Tool: labvocab.NameLong, Chars: 60, Full: 70, Fate: "kept", Got: 70, Name: "mcp__lab__" + labvocab.NameLong, Runs: 1},
		{Tool: labvocab.NameMax, Chars: 128, Full: 138, Fate: "dropped", Runs: 1},
	}}
	if diff := cmp.Diff(wantNames, got.Names); diff != "" {
		t.Errorf("names behind a prefix mismatch (-want +got):\n%s", diff)
	}
	// The lab named lab-hyphen (surface-names-server), read after the
	// plain lab's prefix whatever the order: Codex's namespace, the
	// hyphen rewritten; Claude Code's prefix, kept; a client whose
	// prefix holds no server name measures nothing of it.
	hyphen := matrix.Row{Args: lab.Args{Surface: string(lab.SurfaceNames)}, Servers: []matrix.LabServer{{Name: matrix.ServerNameHyphen}}}
	codexHyphen := analyze.Result{Surface: &analyze.SurfaceFacts{Tools: []surface.ToolDef{
		{Tool: labvocab.NameLong, Name: labvocab.NameLong, Namespace: "mcp__lab_hyphen", Via: surface.ViaFirst},
		{Tool: labvocab.NameDotted, Name: "name_dotted_case", Namespace: "mcp__lab_hyphen", Via: surface.ViaFirst},
	}}}
	got = deriveSurface([]run{{Result: codexHyphen, Row: hyphen}, {Result: codex, Row: rows(lab.SurfaceNames)}}, Dirs{}, "")
	if want := []profiles.NameChars{{Kind: profiles.NameHyphen, Tool: "lab-hyphen", Fate: "rewritten", Name: "lab_hyphen", Runs: 1}}; got.Runs != 2 || !cmp.Equal(want, got.Names.Servers) {
		t.Errorf("Codex's server name: %d runs, %+v", got.Runs, got.Names.Servers)
	}
	claudeHyphen := analyze.Result{Surface: &analyze.SurfaceFacts{Tools: []surface.ToolDef{
		{Tool: labvocab.NameLong, Name: "mcp__lab-hyphen__" + labvocab.NameLong, Via: surface.ViaLater},
	}}}
	got = deriveSurface([]run{{Result: claude, Row: rows(lab.SurfaceNames)}, {Result: claudeHyphen, Row: hyphen}}, Dirs{}, "")
	if want := []profiles.NameChars{{Kind: profiles.NameHyphen, Tool: "lab-hyphen", Fate: "kept", Name: "lab-hyphen", Runs: 1}}; !cmp.Equal(want, got.Names.Servers) {
		t.Errorf("Claude Code's server name: %+v", got.Names.Servers)
	}
	bare := analyze.Result{Surface: &analyze.SurfaceFacts{Tools: []surface.ToolDef{{Tool: labvocab.NameLong, Name: labvocab.NameLong, Via: surface.ViaFirst}}}}
	got = deriveSurface([]run{{Result: bare, Row: rows(lab.SurfaceNames)}, {Result: bare, Row: hyphen}}, Dirs{}, "")
	if got.Runs != 1 || got.Names.Servers != nil {
		t.Errorf("no server name in the prefix: %d runs, %+v", got.Runs, got.Names.Servers)
	}

	// No surface run: no surface.
	if s := deriveSurface([]run{{Result: analyze.Result{}, Row: matrix.Row{}}}, Dirs{}, ""); s != nil {
		t.Errorf("a run outside the surface rows gives %+v", s)
	}
}

// TestSurfaceModelNotRecorded: the model of the surface runs is read from
// their evidence; an excerpt without it (written before it kept the model
// of every run it read) must not pass for the profile's own model, as it
// did for Codex 0.171.0, whose surface runs ask local-model.
func TestSurfaceModelNotRecorded(t *testing.T) {
	r := run{Row: matrix.Row{Args: lab.Args{Surface: string(lab.SurfaceResults)}}, Result: analyze.Result{
		Dir: "codex@0.171.0/surface-results/1", First: &analyze.RequestFacts{Seq: 1},
		Surface: &analyze.SurfaceFacts{Calls: []surface.CallFacts{{Tool: "result_text", Reached: true, Following: 2,
			Parts: []surface.Found{{Part: "content[0] text", Reached: true}}}}}}}
	x := &Excerpt{Models: map[string]string{}}
	if s := deriveSurface([]run{r}, x, "gpt-6.2-sol"); s == nil || s.Model != ModelUnknown {
		t.Fatalf("surface %+v, want model %q", s, ModelUnknown)
	}
	x.Models[modelKey(r.Dir, 1)] = "local-model"
	if s := deriveSurface([]run{r}, x, "gpt-6.2-sol"); s == nil || s.Model != "local-model" {
		t.Fatalf("surface %+v, want model local-model", s)
	}
	x.Models[modelKey(r.Dir, 1)] = "gpt-6.2-sol"
	if s := deriveSurface([]run{r}, x, "gpt-6.2-sol"); s == nil || s.Model != "" {
		t.Fatalf("surface %+v, want the profile's model (none named)", s)
	}
}

// TestDeriveTexts: the prompts, meta and resources rows make a profile's
// texts: a list the client never asked for, texts it had and put in no
// request, one it put in a request; tool metadata of tools never defined
// is not measured; a resource read through the client's tool whole, cut,
// or in no request, and a client without such a tool; two runs that
// disagree make it vary.
func TestDeriveTexts(t *testing.T) {
	prompts := func(unasked []string, reached bool) run {
		return run{Row: matrix.Row{Args: lab.Args{Surface: string(lab.SurfacePrompts)}}, Result: analyze.Result{Surface: &analyze.SurfaceFacts{
			Unasked: unasked, Texts: []surface.TextFact{
				{List: surface.ListPrompts, Item: "lab_prompt", Found: surface.Found{Part: "title", Reached: reached}},
				{List: surface.ListResources, Item: "lab_readme", Found: surface.Found{Part: "title"}}}}}}
	}
	meta := func(undefined bool) run {
		return run{Row: matrix.Row{Args: lab.Args{Surface: string(lab.SurfaceMeta)}}, Result: analyze.Result{Surface: &analyze.SurfaceFacts{
			Texts: []surface.TextFact{{List: surface.ListTools, Item: "meta_title", Found: surface.Found{Part: "title"}, Undefined: undefined}}}}}
	}
	resources := func(own []string, reads ...surface.ReadFact) run {
		return run{Row: matrix.Row{Args: lab.Args{Surface: string(lab.SurfacePrompts)}, Script: []fakeapi.Turn{{Tool: "read_mcp_resource"}}},
			Result: analyze.Result{Surface: &analyze.SurfaceFacts{OwnCalls: own, Reads: reads}}}
	}
	whole := surface.ReadFact{URI: labvocab.SurfaceResourceURI, Found: surface.Found{Reached: true, Full: true}}
	cut := surface.ReadFact{URI: labvocab.SurfaceResourceURI, Found: surface.Found{Reached: true}}
	for _, tt := range []struct {
		name string
		runs []run
		want *profiles.Texts
	}{
		{"shown and unasked", []run{prompts([]string{surface.ListResources}, true), meta(false), resources([]string{"list_mcp_resources", "read_mcp_resource"}, whole)},
			&profiles.Texts{Runs: 3, Prompts: profiles.TextsShown, Resources: profiles.TextsUnasked, ToolMeta: profiles.TextsHidden,
				Read: profiles.TextsWhole, ReadTools: []string{"list_mcp_resources", "read_mcp_resource"}}},
		{"hidden, meta not measured, no resource tool", []run{prompts(nil, false), meta(true), resources(nil)},
			&profiles.Texts{Runs: 2, Prompts: profiles.TextsHidden, Resources: profiles.TextsHidden, Read: profiles.TextsNoTool}},
		{"a cut read, and one in no request", []run{resources([]string{"r"}, cut), resources([]string{"r"}, surface.ReadFact{})},
			&profiles.Texts{Runs: 2, Read: profiles.FateVaries, ReadTools: []string{"r"}}},
		{"none of these rows", nil, nil},
	} {
		s := deriveSurface(tt.runs, &Excerpt{}, "")
		var got *profiles.Texts
		if s != nil {
			got = s.Texts
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%s: texts mismatch (-want +got):\n%s", tt.name, diff)
		}
	}
}
