package derive

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/instrlab/instrlab/internal/matrix"
	"github.com/instrlab/instrlab/internal/matrix/analyze"
	"github.com/instrlab/instrlab/lab"
)

// TestSplitByArm: runs in a non-default arm form their own group, never
// the profile's, even when they set nothing else; runs in the default arm
// stay with the profile.
func TestSplitByArm(t *testing.T) {
	mk := func(arm string, isDefault bool, row string) run {
		return run{Result: analyze.Result{Row: row, Arm: analyze.ArmFacts{Name: arm, Default: isDefault, How: "env X=1"}}, Row: matrix.Row{Name: row, Args: lab.Args{Instr: "ascii:1000"}}}
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

// TestSurfaceOfTheProfilesArm: a profile's surface is read from the
// surface runs in its own runs' arm; one in another arm measures that arm
// (the Agents SDK's structured-content gives structuredContent where the
// default gives the text) and is left out. A default arm by another name
// (Default set) is the default.
func TestSurfaceOfTheProfilesArm(t *testing.T) {
	mk := func(arm string, def bool, row string) run {
		var r run
		r.Arm = analyze.ArmFacts{Name: arm, Default: def}
		r.Row.Name = row
		return r
	}
	names := func(rs []run) []string {
		var out []string
		for _, r := range rs {
			out = append(out, r.Row.Name)
		}
		return out
	}
	surf := []run{mk("", false, "a"), mk("default", true, "b"), mk("structured-content", false, "c"), mk("v2", true, "d")}
	if got := names(surfaceOf(surf, []run{mk("default", true, "base")})); !slices.Equal(got, []string{"a", "b", "d"}) {
		t.Errorf("default profile: surface of %q", got)
	}
	if got := names(surfaceOf(surf, []run{mk("structured-content", false, "base")})); !slices.Equal(got, []string{"c"}) {
		t.Errorf("a profile of arm structured-content: surface of %q", got)
	}
	if got := names(surfaceOf(surf, nil)); !slices.Equal(got, []string{"a", "b", "d"}) {
		t.Errorf("no base runs: surface of %q", got)
	}
}
