package derive

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/instrlab/instrlab/internal/matrix"
	"github.com/instrlab/instrlab/internal/matrix/analyze"
)

// TestSplitByArm: runs in a non-default arm form their own group, never
// the profile's, even when they set nothing else; runs in the default arm
// stay with the profile.
func TestSplitByArm(t *testing.T) {
	mk := func(arm string, isDefault bool, row string) run {
		return run{Result: analyze.Result{Row: row, Arm: analyze.ArmFacts{Name: arm, Default: isDefault, How: "env X=1"}}, Row: matrix.Row{Name: row, Instr: "ascii:1000"}}
	}
	base, groups := split([]run{mk("v2", true, "a"), mk("v1", false, "a"), mk("v1", false, "b"), mk("default", true, "b")})
	var baseRows []string
	for _, r := range base {
		baseRows = append(baseRows, r.Arm.Name+"/"+r.Row.Name)
	}
	if diff := cmp.Diff([]string{"v2/a", "default/b"}, baseRows); diff != "" {
		t.Errorf("profile's runs mismatch (-want +got):\n%s", diff)
	}
	if len(groups) != 1 || groups[0].arm != "v1" || len(groups[0].runs) != 2 || groups[0].when() != "in arm v1 (env X=1)" {
		t.Fatalf("groups %+v", groups)
	}
	if got := defaultArm([]run{mk("v2", true, "a"), mk("v1", false, "a")}); len(got) != 1 || got[0].Arm.Name != "v2" {
		t.Errorf("defaultArm kept %+v", got)
	}
}
