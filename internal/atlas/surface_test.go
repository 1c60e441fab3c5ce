package atlas

import (
	"slices"
	"testing"

	"github.com/instrlab/instrlab/internal/labvocab"
	"github.com/instrlab/instrlab/internal/matrix"
	"github.com/instrlab/instrlab/internal/matrix/analyze"
	"github.com/instrlab/instrlab/internal/surface"
)

// TestSurfaceProperties: each surface property reads what the client did
// from the run's surface facts, and says so when the run has none; a
// sweep over the surface matrix reads them, one over the atlas matrix
// does not.
func TestSurfaceProperties(t *testing.T) {
	facts := func(f analyze.SurfaceFacts) analyze.Result { return analyze.Result{Surface: &f} }
	both := func(text, structured bool) surface.CallFacts {
		return surface.CallFacts{Tool: "result_both", Reached: true, Parts: []surface.Found{
			{Part: "content[0] text", Reached: text}, {Part: "structuredContent", Reached: structured}}}
	}
	kw := func(keyword, fate string) surface.KeywordFact {
		return surface.KeywordFact{Keyword: keyword, Fate: fate}
	}
	for _, tc := range []struct {
		name string
		read func(analyze.Result) string
		r    analyze.Result
		want string
	}{
		{"result: no facts", readResultForm, analyze.Result{}, "not measured"},
		{"result: not called", readResultForm, facts(analyze.SurfaceFacts{}), "did not call result_both"},
		{"result: not reached", readResultForm, facts(analyze.SurfaceFacts{Calls: []surface.CallFacts{{Tool: "result_both"}}}), "the call did not reach the server"},
		{"result: both", readResultForm, facts(analyze.SurfaceFacts{Calls: []surface.CallFacts{both(true, true)}}), "both"},
		{"result: structured", readResultForm, facts(analyze.SurfaceFacts{Calls: []surface.CallFacts{both(false, true)}}), "structuredContent only"},
		{"result: text", readResultForm, facts(analyze.SurfaceFacts{Calls: []surface.CallFacts{both(true, false)}}), "content text only"},
		{"schema: all kept", readSchemaKeywords, facts(analyze.SurfaceFacts{Tools: []surface.ToolDef{
			{Tool: "schema_enum", Via: surface.ViaFirst, Keywords: []surface.KeywordFact{kw("enum", surface.Kept)}}}}), "all kept"},
		{"schema: fates", readSchemaKeywords, facts(analyze.SurfaceFacts{Tools: []surface.ToolDef{
			{Tool: "schema_pattern", Via: surface.ViaFirst, Keywords: []surface.KeywordFact{kw("pattern", surface.Dropped), kw("type", surface.Kept)}},
			{Tool: "schema_anyof", Via: surface.ViaFirst, Keywords: []surface.KeywordFact{kw("anyOf", surface.Rewritten), kw("additionalProperties", surface.Added)}},
			{Tool: "schema_format", Via: surface.ViaFirst, Keywords: []surface.KeywordFact{kw("format", surface.Dropped), kw("pattern", surface.Dropped)}},
			{Tool: "schema_ref", Via: surface.ViaNone},
			{Tool: "lab_ping", Via: surface.ViaNone},
		}}), "dropped: format, pattern; rewritten: anyOf; added: additionalProperties; 1 of 4 tools not sent"},
		{"schema: no schema tools", readSchemaKeywords, facts(analyze.SurfaceFacts{}), "not measured"},
		{"names: prefix", readToolNames, facts(analyze.SurfaceFacts{Tools: []surface.ToolDef{
			{Tool: labvocab.NameLong, Name: "mcp__" + matrix.ServerName + "__" + labvocab.NameLong, Via: surface.ViaLater},
			{Tool: labvocab.NameMax, Via: surface.ViaNone}}}), "60: whole; 128: not offered; prefix mcp__{server}__"},
		{"names: cut, namespace", readToolNames, facts(analyze.SurfaceFacts{Tools: []surface.ToolDef{
			{Tool: labvocab.NameLong, Name: labvocab.NameLong, Namespace: "mcp__" + matrix.ServerName, Via: surface.ViaFirst},
			{Tool: labvocab.NameMax, Name: labvocab.NameMax[:105] + "_d7ee339c3394", Via: surface.ViaFirst}}}), "60: whole; 128: cut to 118; namespace mcp__{server}"},
	} {
		if got := tc.read(tc.r); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
	surfaceNames := PropertyNames(matrix.Surface())
	for _, p := range []string{"result-form", "schema-keywords", "tool-names"} {
		if !slices.Contains(surfaceNames, p) {
			t.Errorf("a sweep of the surface matrix does not read %s (%v)", p, surfaceNames)
		}
		if slices.Contains(PropertyNames(matrix.Atlas()), p) {
			t.Errorf("a sweep of the atlas matrix reads %s", p)
		}
	}
}
