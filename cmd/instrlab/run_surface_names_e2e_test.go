package main

import (
	"os"
	"testing"

	"github.com/instrlab/instrlab/internal/client/clients"
	"github.com/instrlab/instrlab/internal/client/droid"
	"github.com/instrlab/instrlab/internal/fakeapi"
	"github.com/instrlab/instrlab/internal/labvocab"
	"github.com/instrlab/instrlab/internal/profiles"
	"github.com/instrlab/instrlab/internal/profiles/derive"
)

// TestE2ESurfaceRenamedDroid runs the surface matrix's names row on the
// real Droid (one run, about 4 s of client CPU): Droid lists its deferred
// tools by name only, cut with a hash, dots and letters outside ASCII made
// '_'; the fake loads each renamed tool through ToolSearch and calls it
// under Droid's name, and every call reaches the lab under the server's
// name. The profile derived from the run says which names Droid cut,
// renamed and kept.
func TestE2ESurfaceRenamedDroid(t *testing.T) {
	if os.Getenv("INSTRLAB_E2E") != "1" {
		t.Skip("set INSTRLAB_E2E=1 to run Droid end to end (npm install on first use)")
	}
	results := runE2E(t, "-client", droid.Name, "-matrix", "surface", "-row", "surface-names", "-lab", binary, "-timeout", "180s")
	if len(results) != 1 || results[0].Status != "ok" || results[0].Surface == nil {
		t.Fatalf("results %+v", results)
	}
	called := map[string]string{}
	for _, c := range results[0].Surface.Calls {
		if !c.Reached {
			t.Errorf("%s, called as %s, did not reach the lab", c.Tool, c.Name)
		}
		called[c.Tool] = c.Name
	}
	for _, tool := range []string{labvocab.NameLong, labvocab.NameMax, labvocab.NameDotted, labvocab.NameUnicode} {
		name, ok := called[tool]
		switch {
		case !ok:
			t.Errorf("%s was not called", tool)
		case name == tool || fakeapi.ToolNamed(name, tool) || !fakeapi.Renamed(name, tool):
			t.Errorf("%s was called as %s, not under a name Droid renamed it to", tool, name)
		}
	}
	ps, err := derive.Profiles(results, derive.Options{Ref: "e2e", Display: clients.Display})
	if err != nil || len(ps) != 1 || ps[0].Surface == nil || ps[0].Surface.Names == nil {
		t.Fatalf("derived %+v, %v; want a profile with names", ps, err)
	}
	n := ps[0].Surface.Names
	fates := map[string]string{}
	for _, l := range n.Lengths {
		fates[l.Tool] = l.Fate
	}
	for _, c := range n.Chars {
		fates[c.Tool] = c.Fate
	}
	want := map[string]string{labvocab.NameLong: profiles.FateCut, labvocab.NameMax: profiles.FateCut, labvocab.NameDotted: profiles.FateRewritten,
		labvocab.NameUnicode: profiles.FateRewritten, labvocab.NameHyphen: profiles.FateKept, labvocab.NameUpper: profiles.FateKept}
	for tool, fate := range want {
		if fates[tool] != fate {
			t.Errorf("derived: %s %q, want %q (names %+v)", tool, fates[tool], fate, n)
		}
	}
}
