package loss

import (
	"strings"
	"testing"
)

// TestKeyword is the severity of each kind of schema keyword a client
// drops or rewrites, with the reason given for it; and the verdict each
// severity makes.
func TestKeyword(t *testing.T) {
	keywords := []struct {
		words, example string
		want           Severity
		why            string
	}{
		{"`$schema` (top level)", "", Info, "dialect"},
		{"`$id` (top level)", "", Info, "names the schema"},
		{"`title`", "", Info, "a label"},
		{"`examples`", "", Info, "not a constraint"},
		{"`default`", "", Info, "the server applies its default"},
		{"`const`", `const: "fixed" became {"enum":["fixed"],"type":"string"} (schema_const)`, Info, "the same constraint"},
		{"`const`", `const: "fixed" became {"type":"string"} (schema_const)`, Degraded, "a constraint"},
		{"`enum`", "", Degraded, "a constraint"},
		{"`pattern`", "", Degraded, "a constraint"},
		{"`maximum`", "", Degraded, "a constraint"},
		{"`required` (top level)", "", Degraded, "a constraint"},
		{"`anyOf`", "", Degraded, "a constraint"},
		{"`type` (a list of types with null)", "", Degraded, "a constraint"},
		{"`$ref`", "", Degraded, "a structure"},
		{"`additionalProperties` (top level)", "", Degraded, "a constraint"},
		// Copilot CLI 1.0.102 moves bounds into the description.
		{"`maximum`", `maximum: 10 became {"description":"{minimum: 1, maximum: 10}","type":"integer"} (schema_bounds)`, Info, "still reads it"},
		{"`maximum`", `maximum: 10 became {"description":"{minimum: 1}","type":"integer"} (schema_bounds)`, Degraded, "a constraint"},
	}
	for _, k := range keywords {
		got, why := Keyword(k.words, k.example)
		if got != k.want || !strings.Contains(why, k.why) {
			t.Errorf("%s: %s (%s), want %s (%s)", k.words, got, why, k.want, k.why)
		}
	}
	for _, s := range []struct {
		s    Severity
		want Verdict
	}{{Broken, VerdictBroken}, {Degraded, VerdictDegraded}, {Info, Works}} {
		if got := Of(s.s); got != s.want {
			t.Errorf("VerdictOf(%s) = %s, want %s", s.s, got, s.want)
		}
	}
	if !Broken.Worse(Degraded) || !Degraded.Worse(Info) || Info.Worse(Broken) {
		t.Error("the severities are not ordered broken, degraded, info")
	}
}

// TestDecide: the losses of one kind and words are one over their tools;
// the worst severity decides, its one or two first losses say why, the
// others degraded or worse are counted, info ones are not; none works.
func TestDecide(t *testing.T) {
	ls := []Loss{
		{Severity: Degraded, Kind: "result-form", Words: "no content text", Tools: []string{"a"}},
		{Severity: Info, Kind: "name-renamed", Words: "renamed", Tools: []string{"a"}},
		{Severity: Broken, Kind: "unused", Words: "gets none of the instructions"},
		{Severity: Degraded, Kind: "result-form", Words: "no content text", Tools: []string{"b"}},
		{Severity: Degraded, Kind: "result-form", Words: "no content text", Tools: []string{"a"}},
	}
	v, because, more := Decide(ls)
	var got []string
	for _, l := range because {
		got = append(got, l.String())
	}
	if v != VerdictBroken || strings.Join(got, "|") != "gets none of the instructions" || more != 1 {
		t.Errorf("Decide: %s, %q, +%d", v, got, more)
	}
	v, because, more = Decide(ls[:2])
	if v != VerdictDegraded || len(because) != 1 || because[0].String() != "tool a: no content text" || more != 0 {
		t.Errorf("Decide of the first two: %s, %+v, +%d", v, because, more)
	}
	if v, _, _ := Decide(nil); v != Works {
		t.Errorf("Decide(nil) = %s", v)
	}
	if Decides([]string{"x", "y"}, 2) != "x (+3)" || Decides(nil, 0) != "" {
		t.Errorf("Decides: %q", Decides([]string{"x", "y"}, 2))
	}
	if !(VerdictBroken.Rank() < VerdictDegraded.Rank() && VerdictDegraded.Rank() < Works.Rank() && Works.Rank() < VerdictUnknown.Rank()) {
		t.Error("verdicts are not ranked broken, degraded, works, not measured")
	}
	three := Loss{Words: "description cut", Tools: []string{"a", "b", "c"}}
	if three.String() != "3 tools: description cut" {
		t.Errorf("%q", three.String())
	}
}

// TestVerdictSeverity: a verdict's severity is the one Of makes it from,
// and works and not measured stand for no loss.
func TestVerdictSeverity(t *testing.T) {
	for _, s := range Severities {
		if got := Of(s).Severity(); got != s {
			t.Errorf("Of(%s).Severity() = %s", s, got)
		}
	}
	for _, v := range []Verdict{Works, VerdictUnknown} {
		if got := v.Severity(); got != Info {
			t.Errorf("%s.Severity() = %s, want info", v, got)
		}
	}
}
