package atlas

import (
	"path/filepath"
	"testing"
)

// TestReadAtlasV1: an atlas.json of schema v1 (the surface atlas as
// committed before 2026-12-06, its timelines' name under "client") reads
// as the same atlas written in v2: every timeline's client, in the same
// order, with the same points and changes.
func TestReadAtlasV1(t *testing.T) {
	v1, err := Read(t.Context(), "../../schema/testdata/atlas-v1.json")
	if err != nil {
		t.Fatal(err)
	}
	v2, err := Read(t.Context(), filepath.Join(committed, "surface", "atlas.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(v1.Timelines) == 0 || len(v1.Timelines) != len(v2.Timelines) {
		t.Fatalf("v1 has %d timelines, v2 %d", len(v1.Timelines), len(v2.Timelines))
	}
	for i, tl := range v1.Timelines {
		want := v2.Timelines[i]
		if tl.Client == "" || tl.Client != want.Client || len(tl.Points) != len(want.Points) || len(tl.Changes) != len(want.Changes) {
			t.Errorf("timeline %d: v1 reads %q with %d points, %d changes; v2 %q with %d, %d", i, tl.Client, len(tl.Points), len(tl.Changes), want.Client, len(want.Points), len(want.Changes))
		}
	}
}
