package profiles

import (
	"fmt"
	"slices"
	"testing"
)

// TestExpandBudgetsByWay: a budget holds for the way it was measured: the
// profile's own view takes those of the default way, a variant those of
// its way (a model outside Codex's catalogue), and a variant with none
// measured its way gets none.
func TestExpandBudgetsByWay(t *testing.T) {
	p := Profile{Client: "codex", Name: "Codex CLI", Version: "0.171.0", Model: "gpt-6.2-sol",
		Budgets:  []Budget{{Name: "defer", Within: 0, Past: 3}, {Name: "name", Within: 118, Past: 119, Way: "model local-model"}},
		Variants: []Variant{{When: "model local-model", Model: "local-model"}, {When: "model gpt-5.5", Model: "gpt-5.5"}}}
	ps := Expand([]Profile{p})
	if len(ps) != 3 {
		t.Fatalf("%d profiles, want 3", len(ps))
	}
	for i, want := range []string{"defer", "name", ""} {
		got := ""
		for _, b := range ps[i].Budgets {
			got += b.Name
		}
		if got != want {
			t.Errorf("%s: budgets %q, want %q", ps[i].Title(), got, want)
		}
	}
	if w := Way("", "local-model", "gpt-6.2-sol", nil, nil); w != ps[1].Way {
		t.Errorf("a budget's way %q is not its variant's %q", w, ps[1].Way)
	}
}

// TestExpandSurfaceByModel: a surface measured with another model than
// the profile's (Codex CLI 0.171.0 defines MCP tools only for
// local-model) holds for that model's view alone, as does a budget whose
// runs named that model; the default view says the surface is not
// measured for its model. Before, check gave the default view what
// local-model's runs measured, and local-model's view nothing.
func TestExpandSurfaceByModel(t *testing.T) {
	s := &Surface{Runs: 9, Model: "local-model", Results: []ResultForm{{Case: ResultBoth, Content: FateDropped, Structured: FateKept}}}
	p := Profile{Client: "codex", Name: "Codex CLI", Version: "0.171.0", Model: "gpt-6.2-sol", Surface: s,
		Budgets: []Budget{{Name: "wait", Within: 1.19, Past: 1.25}, {Name: "result", Within: 11964, Past: 11965, Model: "local-model"},
			{Name: "wait", Within: 1.14, Past: 1.2, Way: "model local-model", Model: "local-model"}},
		Variants: []Variant{{When: "model local-model", Model: "local-model"}, {When: "in arm lazy-stdio model local-model", Arm: "lazy-stdio", Model: "local-model"}}}
	ps := Expand([]Profile{p})
	if len(ps) != 3 {
		t.Fatalf("%d profiles, want 3", len(ps))
	}
	budgets := func(q Profile) (out []string) {
		for _, b := range q.Budgets {
			out = append(out, fmt.Sprintf("%s %g", b.Name, b.Within))
		}
		return out
	}
	for i, want := range []struct {
		surface bool
		budgets []string
	}{{false, []string{"wait 1.19"}}, {true, []string{"result 11964", "wait 1.14"}}, {false, nil}} {
		q := ps[i]
		if (q.Surface != nil) != want.surface || !slices.Equal(budgets(q), want.budgets) {
			t.Errorf("%s: surface %v, budgets %q; want surface %v, budgets %q", q.Title(), q.Surface != nil, budgets(q), want.surface, want.budgets)
		}
	}
	if !slices.Contains(ps[0].Unmeasured, SurfaceElsewhere("gpt-6.2-sol", "local-model")) || ps[0].SurfaceWith != "local-model" {
		t.Errorf("default view's unmeasured %q: the surface is not said to be measured with local-model only", ps[0].Unmeasured)
	}
}
