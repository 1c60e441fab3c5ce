package derive

import (
	"slices"
	"testing"

	"github.com/instrlab/instrlab/internal/profiles"
	"github.com/instrlab/instrlab/internal/surface"
)

// TestReserved: of the lab's tools named as clients name their own, one
// no request defines and no text lists is hidden (Gemini CLI 0.61.0's
// write_file); one listed behind the server's prefix but never loaded is
// not (Droid 0.225.2's lab___bash beside lab___Bash); one defined whose
// call by that name never reached the server is shadowed (Continue CLI
// 1.5.47 runs its own Read); a run that offered none measures nothing.
func TestReserved(t *testing.T) {
	tools := []surface.ToolDef{
		{Tool: "write_file", Via: surface.ViaNone},
		{Tool: "bash", Via: surface.ViaNone, Listed: true},
		{Tool: "Read", Name: "Read", Via: surface.ViaFirst},
		{Tool: "read", Name: "read", Via: surface.ViaFirst},
		{Tool: "lab_ping", Via: surface.ViaNone}, // not a reserved name
	}
	calls := []surface.CallFacts{{Tool: "Read", Name: "Read", Reached: false}, {Tool: "read", Name: "read", Reached: true}}
	s := &profiles.Surface{}
	if !reserved(s, tools, calls) {
		t.Fatal("measured nothing")
	}
	r := s.Reserved
	if !slices.Equal(r.Hidden, []string{"write_file"}) || !slices.Equal(r.Shadowed, []string{"Read"}) || len(r.Measured) != 4 || r.Runs != 1 {
		t.Errorf("reserved %+v; want write_file hidden, Read shadowed, 4 measured, 1 run", r)
	}
	if !r.Hides("write_file") || r.Hides("bash") || !r.Shadows("Read") || r.Shadows("read") {
		t.Errorf("Hides/Shadows disagree with %+v", r)
	}
	none := &profiles.Surface{}
	if reserved(none, []surface.ToolDef{{Tool: "Read", Via: surface.ViaNone}, {Tool: "write_file", Via: surface.ViaNone}}, nil) || none.Reserved != nil {
		t.Errorf("a run that offered none measured %+v", none.Reserved)
	}
}
