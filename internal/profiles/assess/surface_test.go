package assess

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/instrlab/instrlab/internal/loss"
	"github.com/instrlab/instrlab/internal/probe"
	"github.com/instrlab/instrlab/internal/profiles"
)

// surfaceProfile is a profile whose surface is as Codex CLI 0.171.0's
// measured one in its form: tools in a namespace mcp__{server}, a name of
// 138 characters with it cut to 128 with a hash, one of 70 kept, dots
// renamed; pattern and default dropped inside, const rewritten,
// additionalProperties kept; of a structured result, the model gets the
// structuredContent only.
func surfaceProfile() profiles.Profile {
	return profiles.Profile{Client: "x", Name: "X", Version: "1", Render: profiles.Render{Server: "{text}"},
		Evidence: []profiles.Evidence{{Kind: "instrlab-run", Ref: "r", Says: "s"}},
		Surface: &profiles.Surface{Runs: 3,
			Results: []profiles.ResultForm{{Case: profiles.ResultOutSchema, Tool: "result_outschema", Runs: 1, Content: "dropped", Structured: "kept"}},
			Schema: []profiles.SchemaKeyword{
				{Keyword: "additionalProperties", Top: "kept", Nested: "kept"},
				{Keyword: "const", Nested: "rewritten", Tool: "schema_const", Sent: `{"const":"fixed","type":"string"}`, Became: `{"enum":["fixed"],"type":"string"}`},
				{Keyword: "default", Nested: "dropped", Tool: "schema_default", Sent: `"fallback"`, Became: `{"type":"string"}`},
				{Keyword: "pattern", Nested: "dropped", Tool: "schema_pattern", Sent: `"^a$"`, Became: `{"type":"string"}`},
				{Keyword: "properties", Top: "kept", Nested: "kept"},
				{Keyword: "type", Top: "kept", Nested: "kept"},
			},
			Names: &profiles.Names{Namespace: "mcp__{server}", Server: "lab",
				Lengths: []profiles.NameLength{
					{Tool: "name_long", Chars: 60, Full: 70, Fate: "kept", Got: 70, Runs: 1},
					{Tool: "name_max", Chars: 128, Full: 138, Fate: "cut", Got: 128, Hash: true, Runs: 1},
				},
				Chars: []profiles.NameChars{{Kind: profiles.NameDot, Tool: "name.dotted.case", Fate: "rewritten", Name: "name_dotted_case", Runs: 1},
					{Kind: profiles.NamePrefix, Tool: "name_prefix", Fate: "kept", Name: "name_prefix", Runs: 1},
					{Kind: profiles.NamePrefixed, Tool: "name_prefix_with_more", Fate: "kept", Name: "name_prefix_with_more", Runs: 1}},
			}}}
}

// TestSurfacePredictions: check applies a profile's measured surface to
// the server's tools: a name cut past the measured cut, one kept within
// the longest kept, a dotted one renamed, one past -max-name only with
// the client's prefix; the schema keywords the client drops and rewrites,
// and the one it was not measured with; what of a structured result the
// model gets. A profile without a surface predicts nothing but says so.
func TestSurfacePredictions(t *testing.T) {
	schema := json.RawMessage(`{"type":"object","properties":{"id":{"type":"string","pattern":"^[a-z]+$","default":"a"},"mode":{"const":"x"},"when":{"type":"string","format":"date"}},"additionalProperties":false}`)
	long := strings.Repeat("l", 125)
	tools := []probe.Tool{
		{Name: "get", InputSchema: schema, OutputSchema: json.RawMessage(`{"type":"object"}`)},
		{Name: long},
		{Name: "get.user"},
		{Name: strings.Repeat("m", 58)},
	}
	r := result(ok(probe.Legacy, nil, tools...), notFound(), probe.Survival{}, 0)
	r.Target.Name = "srv"
	none := surfaceProfile()
	none.Version, none.Surface = "2", nil
	rep := Assess([]probe.Result{r}, Options{Profiles: []profiles.Profile{surfaceProfile(), none}, Rules: Rules{MaxName: 64}})
	s := rep.Servers[0]
	want := []SurfaceFate{
		{Tool: "get", Name: "mcp__srv__get", Chars: 13, NameFate: "kept",
			Dropped: []string{"`default`", "`pattern`"}, Rewritten: []string{"`const`"},
			Examples:   []string{`default: "fallback" became {"type":"string"} (schema_default)`, `pattern: "^a$" became {"type":"string"} (schema_pattern)`, `const: {"const":"fixed","type":"string"} became {"enum":["fixed"],"type":"string"} (schema_const)`},
			Unmeasured: []string{"`format`"}, Result: "structuredContent",
			Keywords: []KeywordFate{
				{Words: "`default`", Fate: "dropped", Example: `default: "fallback" became {"type":"string"} (schema_default)`},
				{Words: "`pattern`", Fate: "dropped", Example: `pattern: "^a$" became {"type":"string"} (schema_pattern)`},
				{Words: "`const`", Fate: "rewritten", Example: `const: {"const":"fixed","type":"string"} became {"enum":["fixed"],"type":"string"} (schema_const)`},
			}},
		{Tool: long, Name: "mcp__srv__" + long, Chars: 135, NameFate: "cut", CutTo: 128, NameNote: "cut to 128 characters, then _ and a hash (measured: a name of 138 was)"},
		{Tool: "get.user", Name: "mcp__srv__get.user", Chars: 18, NameFate: "rewritten", NameNote: "renamed (measured: name.dotted.case, with dots, became name_dotted_case)"},
		{Tool: strings.Repeat("m", 58), Name: "mcp__srv__" + strings.Repeat("m", 58), Chars: 68, NameFate: "kept"},
	}
	if diff := cmp.Diff(want, s.Views[0].Surface); diff != "" {
		t.Errorf("surface predictions mismatch (-want +got):\n%s", diff)
	}
	if s.Views[1].Surface != nil {
		t.Errorf("a profile without a surface predicts %+v", s.Views[1].Surface)
	}
	var got []string
	for _, f := range s.Findings {
		switch f.Code {
		case NameCut, NameDropped, NameRenamed, SchemaLost, ResultForm, MaxName:
			got = append(got, f.Level+" "+string(f.Code)+": "+f.Said())
		}
	}
	// One schema-lost finding a keyword, at the keyword's severity: a
	// default and a const rewritten as a one-value enum lose the model
	// nothing (info); a pattern dropped does (warn).
	wantFindings := []string{
		"info schema-lost: tool get: `default` dropped from its input schema (measured: " + want[0].Examples[0] + ")",
		"warn schema-lost: tool get: `pattern` dropped from its input schema (measured: " + want[0].Examples[1] + ")",
		"info schema-lost: tool get: `const` rewritten in its input schema (measured: " + want[0].Examples[2] + ")",
		"warn result-form: tool get: it has an output schema, so its results carry structuredContent: the model gets the structuredContent JSON, not the content text (measured)",
		"warn name-cut: tool " + long + ": its name is 135 characters as the client names it (mcp__srv__" + long + "): cut to 128 characters, then _ and a hash (measured: a name of 138 was)",
		"fail max-name: tool " + long + "'s name is 125 characters, more than -max-name 64",
		"info name-renamed: tool get.user: renamed (measured: name.dotted.case, with dots, became name_dotted_case)",
		"fail max-name: tool " + strings.Repeat("m", 58) + ": 68 characters as the client names it (mcp__srv__" + strings.Repeat("m", 58) + "), more than -max-name 64",
	}
	if diff := cmp.Diff(sorted(wantFindings), sorted(got)); diff != "" {
		t.Errorf("findings mismatch (-want +got):\n%s", diff)
	}
	var facts []string
	for _, v := range s.Views {
		for _, f := range v.Facts {
			if f.Name == "results, schemas, names" {
				facts = append(facts, f.Value)
			}
		}
	}
	wantFacts := []string{"of content text and structuredContent, the model gets structuredContent; of 6 schema keywords, dropped: default, pattern; rewritten: const; names behind namespace mcp__{server}; prompts and resources not measured", NotMeasured}
	if diff := cmp.Diff(wantFacts, facts); diff != "" {
		t.Errorf("facts mismatch (-want +got):\n%s", diff)
	}
}

func sorted(ss []string) []string {
	out := slices.Clone(ss)
	slices.Sort(out)
	return out
}

// TestKeywordFormsApart: a client that rewrites a list of types with
// null (Gemini CLI 0.61.0: ["string","null"] became "string") and keeps a
// single type and a list without null is predicted to rewrite only that;
// before, check told every Gemini user that each tool's `type` was
// rewritten. Likewise an items schema of false (Codex CLI 0.171.0) apart
// from an items object, and the type "integer" sent as "number" (mcp-use
// 1.34.6) apart from "string". A profile that never met a form says it is
// not measured.
func TestKeywordFormsApart(t *testing.T) {
	p := surfaceProfile()
	p.Surface.Schema = append(p.Surface.Schema,
		profiles.SchemaKeyword{Keyword: profiles.TypeNullable, Nested: "rewritten", Tool: "schema_nullable", Sent: `["string","null"]`, Became: `"string"`},
		profiles.SchemaKeyword{Keyword: profiles.TypeList, Nested: "kept"},
		profiles.SchemaKeyword{Keyword: "items", Nested: "kept"},
		profiles.SchemaKeyword{Keyword: profiles.ItemsBool, Nested: "rewritten", Tool: "schema_prefixitems", Sent: `false`, Became: `{"type":"string"}`},
		profiles.SchemaKeyword{Keyword: profiles.TypeInteger, Nested: "rewritten", Tool: "schema_bounds", Sent: `"integer"`, Became: `"number"`})
	tool := func(name, prop string) probe.Tool {
		return probe.Tool{Name: name, InputSchema: json.RawMessage(`{"type":"object","properties":{"a":` + prop + `}}`)}
	}
	tools := []probe.Tool{tool("single", `{"type":"string"}`), tool("nullable", `{"type":["string","null"]}`),
		tool("union", `{"type":["string","number"]}`), tool("list", `{"type":"array","items":{"type":"string"}}`),
		tool("closed", `{"type":"array","prefixItems":[{"type":"string"}],"items":false}`), tool("integer", `{"type":"integer"}`)}
	r := result(ok(probe.Legacy, nil, tools...), notFound(), probe.Survival{}, 0)
	older := surfaceProfile()
	older.Version = "0"
	rep := Assess([]probe.Result{r}, Options{Profiles: []profiles.Profile{p, older}})
	fates := func(v View) map[string][2][]string {
		out := map[string][2][]string{}
		for _, f := range v.Surface {
			out[f.Tool] = [2][]string{f.Rewritten, f.Unmeasured}
		}
		return out
	}
	want := map[string][2][]string{"single": {nil, nil}, "nullable": {{"`type` (a list of types with null)"}, nil},
		"union": {nil, nil}, "list": {nil, nil}, "closed": {{"`items` (a boolean schema)"}, {"`prefixItems`"}},
		"integer": {{"`type` (integer)"}, nil}}
	if diff := cmp.Diff(want, fates(rep.Servers[0].Views[0])); diff != "" {
		t.Errorf("with each form measured, fates mismatch (-want +got):\n%s", diff)
	}
	got := fates(rep.Servers[0].Views[1])
	if !slices.Contains(got["nullable"][1], "`type` (a list of types with null)") || !slices.Contains(got["closed"][1], "`items` (a boolean schema)") ||
		!slices.Contains(got["integer"][1], "`type` (integer)") || len(got["single"][1]) != 0 {
		t.Errorf("without the forms measured, fates %v: want each form not measured, a single type measured", got)
	}
}

// TestResultFormSameData: a client that gives the model one form of a
// structured result loses it nothing when -call found the content text
// to hold the structuredContent's JSON (server-everything's
// get-structured-content does): the finding is info, the verdict works.
func TestResultFormSameData(t *testing.T) {
	for _, same := range []bool{false, true} {
		v := View{Client: "X 1", Profile: "x@1", Surface: []SurfaceFate{{Tool: "get", Result: "structuredContent"}},
			Calls: []CallFate{{Tool: "get", SameData: same}}}
		var l findingList
		surfaceFindings(&l, v, 0)
		if len(l) != 1 || l[0].Code != ResultForm {
			t.Fatalf("same data %v: findings %+v", same, l)
		}
		want := loss.Degraded
		if same {
			want = loss.Info
		}
		if l[0].Severity != want {
			t.Errorf("same data %v: %s (%s), want %s", same, l[0].Severity, l[0].Loss, want)
		}
	}
}

// TestReservedNames: a server's tool named as the client hides one of
// its own is not offered (name-reserved, broken), and so is one whose
// call runs the client's own tool; a name the profile did not measure
// keeps its other predictions. Before, check predicted Gemini CLI
// 0.61.0's write_file kept while run showed it never reached a request.
func TestReservedNames(t *testing.T) {
	p := surfaceProfile()
	p.Surface.Reserved = &profiles.Reserved{Measured: []string{"write_file", "Read", "read"}, Hidden: []string{"write_file"}, Shadowed: []string{"Read"}, Runs: 1}
	r := result(ok(probe.Legacy, nil, probe.Tool{Name: "write_file"}, probe.Tool{Name: "Read"}, probe.Tool{Name: "read"}, probe.Tool{Name: "other"}), notFound(), probe.Survival{}, 0)
	r.Target.Name = "srv"
	s := Assess([]probe.Result{r}, Options{Profiles: []profiles.Profile{p}}).Servers[0]
	fates := map[string]SurfaceFate{}
	for _, f := range s.Views[0].Surface {
		fates[f.Tool] = f
	}
	for tool, want := range map[string][2]bool{"write_file": {true, false}, "Read": {false, true}, "read": {}, "other": {}} {
		f := fates[tool]
		if f.Hidden != want[0] || f.Shadowed != want[1] || (f.NameFate == profiles.FateDropped) != (want[0] || want[1]) {
			t.Errorf("%s: fate %q hidden %v shadowed %v (%s), want %v", tool, f.NameFate, f.Hidden, f.Shadowed, f.NameNote, want)
		}
	}
	var reserved []string
	for _, f := range s.Findings {
		if f.Code == NameReserved {
			reserved = append(reserved, f.Tool)
			if f.Severity != loss.Broken {
				t.Errorf("%s: severity %s, want broken", f.Tool, f.Severity)
			}
		}
	}
	if slices.Sort(reserved); !slices.Equal(reserved, []string{"Read", "write_file"}) {
		t.Errorf("name-reserved findings for %q, want Read and write_file", reserved)
	}
	if v := s.Verdicts[0]; v.Verdict != loss.VerdictBroken {
		t.Errorf("verdict %s (%q), want broken", v.Verdict, v.Because)
	}
}

// TestUnmeasuredInAnotherWay: a way of running the client that did not
// measure what decides its own way's loss (names: Gemini CLI 0.61.0's
// arms measured none) says "not measured", never "works". Before, check
// said such arms work, while run showed them hide write_file as the
// client's own way does.
func TestUnmeasuredInAnotherWay(t *testing.T) {
	p := surfaceProfile()
	p.Arm = "default"
	p.Surface.Reserved = &profiles.Reserved{Measured: []string{"write_file"}, Hidden: []string{"write_file"}, Runs: 1}
	drops := profiles.Failure{Method: "tools/list", Runs: 2, Sent: 2}
	p.Failures = []profiles.Failure{drops}
	p.Variants = []profiles.Variant{
		{When: "in arm a", Arm: "a", Runs: 1, Render: p.Render},
		{When: "in arm b", Arm: "b", Runs: 1, Render: p.Render, Failures: []profiles.Failure{drops}},
	}
	byWay := func(s Server) map[string]ClientVerdict {
		out := map[string]ClientVerdict{}
		for _, c := range s.Verdicts {
			for _, w := range c.Ways {
				out[w] = c
			}
		}
		return out
	}

	r := result(ok(probe.Legacy, nil, probe.Tool{Name: "write_file"}), notFound(), probe.Survival{}, 0)
	vs := byWay(Assess([]probe.Result{r}, Options{Profiles: profiles.Expand([]profiles.Profile{p})}).Servers[0])
	if c := vs["default"]; c.Verdict != loss.VerdictBroken {
		t.Errorf("own way: %s %q, want broken", c.Verdict, c.Because)
	}
	for _, way := range []string{"a", "b"} {
		c := vs[way]
		if c.Verdict != loss.VerdictUnknown || len(c.Because) != 1 || !strings.Contains(c.Because[0], "names, schemas and results is not measured in this way") || !strings.Contains(c.Because[0], "write_file") {
			t.Errorf("arm %s, a reserved name: %s %q, want not measured, for the names", way, c.Verdict, c.Because)
		}
	}

	// A server later than the default waits (a budget of 0.2 s): the arm
	// that measured only whether it waited for a server 8 s late does not
	// know how long it waits.
	waited := true
	p.Surface, p.Variants = nil, []profiles.Variant{{When: "in arm a", Arm: "a", Runs: 1, Render: p.Render, Startup: profiles.Startup{Waited: &waited, Held: "8s"}}}
	p.Budgets = []profiles.Budget{{Name: profiles.BudgetWait, Unit: "s", Within: 0.2, Past: 0.3, PastBudget: "drops the server", Runs: 4}}
	r = result(ok(probe.Legacy, str("Use the tools.")), notFound(), probe.Survival{}, 2*time.Second)
	vs = byWay(Assess([]probe.Result{r}, Options{Profiles: profiles.Expand([]profiles.Profile{p})}).Servers[0])
	if c := vs["default"]; c.Verdict != loss.VerdictBroken {
		t.Errorf("own way, a late server: %s %q, want broken", c.Verdict, c.Because)
	}
	if c := vs["a"]; c.Verdict != loss.VerdictUnknown || len(c.Because) != 1 || !strings.Contains(c.Because[0], "how long it waits for a server is not measured in this way") {
		t.Errorf("arm a, a late server: %s %q, want not measured, for the wait", c.Verdict, c.Because)
	}

}
