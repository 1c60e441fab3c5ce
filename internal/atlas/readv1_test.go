package atlas

import (
	"path/filepath"
	"slices"
	"testing"
)

// TestReadAtlasV1: an atlas.json of schema v1 (the surface atlas as
// committed before 2026-12-06, its timelines' name under "client") reads
// as the same atlas written in v2: every timeline's client, in the same
// order, with the same points and changes as the committed atlas's
// timeline of that client (which has grown timelines since).
func TestReadAtlasV1(t *testing.T) {
	v1, err := Read(t.Context(), "../../schema/testdata/atlas-v1.json")
	if err != nil {
		t.Fatal(err)
	}
	v2, err := Read(t.Context(), filepath.Join(committed, "surface", "atlas.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(v1.Timelines) == 0 {
		t.Fatal("v1 reads no timeline")
	}
	at := 0
	for i, tl := range v1.Timelines {
		j := slices.IndexFunc(v2.Timelines, func(w Timeline) bool { return w.Client == tl.Client })
		if tl.Client == "" || j < at {
			t.Errorf("timeline %d: v1 reads %q, not a timeline of v2 after the one before", i, tl.Client)
			continue
		}
		at = j
		want := v2.Timelines[j]
		if len(tl.Points) != len(want.Points) || len(tl.Changes) != len(want.Changes) {
			t.Errorf("timeline %d: v1 reads %q with %d points, %d changes; v2 with %d, %d", i, tl.Client, len(tl.Points), len(tl.Changes), len(want.Points), len(want.Changes))
		}
	}
}
