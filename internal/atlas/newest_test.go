package atlas

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestNewestRun(t *testing.T) {
	ran := Props{{Name: "uses", Value: "yes"}}
	a := &Atlas{Timelines: []Timeline{
		{Client: "a", Points: []Point{
			{Version: "1.2.0", Attempt: 1, Props: ran},
			{Version: "1.10.0", Attempt: 1, Props: ran}, // newer than 1.2.0 as a version, not as text
			{Version: "1.11.0", Attempt: 1, CouldNotRun: "not installable"},
			{Version: "1.12.0", Attempt: 1}, // no properties: not run
		}},
		{Client: "b", Points: []Point{{Version: "2.0.0", Attempt: 2, Props: ran}, {Version: "1.0.0", Attempt: 1, Props: ran}}},
		{Client: "c", Points: []Point{{Version: "0.1.0", Attempt: 1, CouldNotRun: "no stream-json"}}},
	}}
	if diff := cmp.Diff(map[string]string{"a": "1.10.0", "b": "2.0.0"}, a.NewestRun()); diff != "" {
		t.Errorf("NewestRun mismatch (-want +got):\n%s", diff)
	}
}

// TestCommittedAtlasNewestRun: the committed atlas's newest run of each
// client it holds is a version its timeline lists.
func TestCommittedAtlasNewestRun(t *testing.T) {
	a, err := Read(t.Context(), "../../atlas/atlas.json")
	if err != nil {
		t.Fatal(err)
	}
	newest := a.NewestRun()
	for _, tl := range a.Timelines {
		v, ok := newest[tl.Client]
		if !ok {
			t.Errorf("%s: no version ran", tl.Client)
			continue
		}
		found := false
		for _, l := range tl.Versions {
			found = found || l == v
		}
		if !found {
			t.Errorf("%s: newest run %s is not among its versions", tl.Client, v)
		}
	}
}
