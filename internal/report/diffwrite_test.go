package report

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestDiffOptionsValidate: -tolerance is a share from 0 to below 1.
func TestDiffOptionsValidate(t *testing.T) {
	for _, tt := range []struct {
		tolerance float64
		ok        bool
	}{{0, true}, {0.1, true}, {0.99, true}, {-0.1, false}, {1, false}, {2, false}} {
		err := DiffOptions{Tolerance: tt.tolerance}.Validate()
		if (err == nil) != tt.ok || (err != nil && !strings.HasPrefix(err.Error(), "-tolerance ")) {
			t.Errorf("tolerance %g: %v, want ok %v (an error naming -tolerance)", tt.tolerance, err, tt.ok)
		}
	}
}

// TestWriteDiff: the changes are written once, as JSON alone or as a
// table alone, and the verdict is an error when something changed and
// none when nothing did.
func TestWriteDiff(t *testing.T) {
	old, cur, again := openFixture(t, "2.1.285"), openFixture(t, "2.1.328"), openFixture(t, "2.1.328-again")
	var js strings.Builder
	err := WriteDiff(&js, old, cur, "A", "B", DiffOptions{Tolerance: 0.1, JSON: true})
	if err == nil || !strings.Contains(err.Error(), "changes") {
		t.Errorf("two versions: verdict %v, want the changes counted", err)
	}
	var d Diff
	if err := json.Unmarshal([]byte(js.String()), &d); err != nil {
		t.Fatalf("-json output is not one JSON value: %v\n%s", err, js.String())
	}
	if d.A != "A" || d.B != "B" || len(d.Changes) == 0 {
		t.Errorf("JSON diff names %q and %q with %d changes, want A, B and the changes", d.A, d.B, len(d.Changes))
	}
	var text strings.Builder
	if err := WriteDiff(&text, cur, again, "A", "B", DiffOptions{Tolerance: 0.1}); err != nil {
		t.Errorf("the same version twice: verdict %v, want none", err)
	}
	if strings.HasPrefix(strings.TrimSpace(text.String()), "{") || text.Len() == 0 {
		t.Errorf("text output is JSON or empty:\n%s", text.String())
	}
}
