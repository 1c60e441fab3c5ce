package surface

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestCompareSchema: a list of schemas of the same length is compared
// schema by schema, so a keyword dropped inside oneOf/0 is that keyword
// dropped, not the whole oneOf rewritten; a list of another length, or a
// value held another way, is rewritten whole; a value that is data
// (default, const) is compared whole even when it is an object; a named
// schema the client lacks is dropped whole.
func TestCompareSchema(t *testing.T) {
	js := func(s string) any {
		var v any
		if err := json.Unmarshal([]byte(s), &v); err != nil {
			t.Fatal(err)
		}
		return v
	}
	for _, tc := range []struct {
		name, sent, got string
		want            []KeywordFact
	}{{
		name: "inside a list",
		sent: `{"oneOf":[{"type":"string","maxLength":3},{"type":"integer"}]}`,
		got:  `{"oneOf":[{"type":"string"},{"type":"integer"}]}`,
		want: []KeywordFact{
			{Path: "/oneOf/0", Keyword: "maxLength", Fate: Dropped, Sent: "3", Became: `{"type":"string"}`},
			{Path: "/oneOf/0", Keyword: "type", Fate: Kept},
			{Path: "/oneOf/1", Keyword: "type", Fate: Kept},
		},
	}, {
		name: "a list of another length",
		sent: `{"anyOf":[{"type":"string"},{"type":"number"}]}`,
		got:  `{"anyOf":[{"type":"string"}]}`,
		want: []KeywordFact{{Keyword: "anyOf", Fate: Rewritten, Sent: `[{"type":"string"},{"type":"number"}]`, Became: `[{"type":"string"}]`}},
	}, {
		name: "a list made one schema",
		sent: `{"items":[{"type":"string"}]}`,
		got:  `{"items":{"type":"string"}}`,
		want: []KeywordFact{{Keyword: "items", Fate: Rewritten, Sent: `[{"type":"string"}]`, Became: `{"type":"string"}`}},
	}, {
		name: "data that is an object",
		sent: `{"default":{"type":"a","n":1}}`,
		got:  `{"default":{"type":"a"}}`,
		want: []KeywordFact{{Keyword: "default", Fate: Rewritten, Sent: `{"n":1,"type":"a"}`, Became: `{"type":"a"}`}},
	}, {
		name: "one schema and named schemas",
		sent: `{"properties":{"a":{"type":"string","format":"date"},"b":{}},"not":{"type":"null"}}`,
		got:  `{"properties":{"a":{"type":"string"}},"not":{"type":"null","title":"x"}}`,
		want: []KeywordFact{
			{Path: "/not", Keyword: "type", Fate: Kept},
			{Path: "/not", Keyword: "title", Fate: Added, Became: `"x"`},
			{Path: "/properties/a", Keyword: "format", Fate: Dropped, Sent: `"date"`, Became: `{"type":"string"}`},
			{Path: "/properties/a", Keyword: "type", Fate: Kept},
			{Path: "/properties/b", Keyword: "(schema)", Fate: Dropped, Sent: `{}`, Became: `{"a":{"type":"string"}}`},
		},
	}, {
		// Mastra 2.0.0's form of an optional property (the model may
		// send null): the wrap is one fact, the keywords are compared
		// inside it, and a description the client moved out is its own.
		name: "made nullable",
		sent: `{"properties":{"c":{"type":"string","enum":["a","b"],"minLength":1}}}`,
		got:  `{"properties":{"c":{"anyOf":[{"type":"string","enum":["a","b"]},{"type":"null"}],"description":"constraints: minimum length 1"}}}`,
		want: []KeywordFact{
			{Path: "/properties/c", Keyword: Nullable, Fate: Added, Became: `{"anyOf":[{"enum":["a","b"],"type":"string"},{"type":"null"}],"description":"constraints: minimum length 1"}`},
			{Path: "/properties/c", Keyword: "enum", Fate: Kept},
			{Path: "/properties/c", Keyword: "minLength", Fate: Dropped, Sent: "1", Became: `{"anyOf":[{"enum":["a","b"],"type":"string"},{"type":"null"}],"description":"constraints: minimum length 1"}`},
			{Path: "/properties/c", Keyword: "type", Fate: Kept},
			{Path: "/properties/c", Keyword: "description", Fate: Added, Became: `"constraints: minimum length 1"`},
		},
	}, {
		name: "nullable already, in another form",
		sent: `{"type":["string","null"],"maxLength":3}`,
		got:  `{"anyOf":[{"type":"string","maxLength":3},{"type":"null"}]}`,
		want: []KeywordFact{{Keyword: "maxLength", Fate: Kept}, {Keyword: "type", Fate: Kept}},
	}, {
		// ADK for TypeScript 2.0.0 sends Gemini's Schema: the same
		// types in capitals, a nullable type as nullable: true.
		name: "Gemini's spelling of a type",
		sent: `{"type":"object","properties":{"a":{"type":["string","null"]},"b":{"type":"string"}}}`,
		got:  `{"type":"OBJECT","properties":{"a":{"type":"STRING","nullable":true},"b":{"type":"NUMBER"}}}`,
		want: []KeywordFact{
			{Path: "/properties/a", Keyword: "type", Fate: Kept},
			{Path: "/properties/a", Keyword: "nullable", Fate: Added, Became: "true"},
			{Path: "/properties/b", Keyword: "type", Fate: Rewritten, Sent: `"string"`, Became: `"NUMBER"`},
			{Keyword: "type", Fate: Kept},
		},
	}, {
		name: "an anyOf the server sent is not a wrap",
		sent: `{"anyOf":[{"type":"string"},{"type":"null"}]}`,
		got:  `{"anyOf":[{"type":"string"},{"type":"null"}]}`,
		want: []KeywordFact{{Keyword: "anyOf", Fate: Kept}},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, CompareSchema(js(tc.sent), js(tc.got))); diff != "" {
				t.Errorf("CompareSchema mismatch (-want +got):\n%s", diff)
			}
		})
	}
}
