package profiles

import "testing"

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
