package surface

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/instrlab/instrlab/internal/fakeapi"
)

// TestNotCalled: over Codex 0.171.0's real results run, every scripted
// call it made is not missed; a call scripted twice and made once is
// missed once; a tool the server does not list, one the client never
// offered and one it offered but never called are each missed with that
// reason. Taking a made call out of the facts makes it missed, never a
// dropped part.
func TestNotCalled(t *testing.T) {
	reqs, log := load(t, filepath.Join("testdata", "codex-0.171.0-results"), nil)
	calls, defs := Calls(reqs, log), Tools(reqs, log, "lab")
	var script fakeapi.Turn
	for _, c := range calls {
		script.Calls = append(script.Calls, fakeapi.Call{Tool: c.Tool})
	}
	if len(script.Calls) != 10 {
		t.Fatalf("the fixture made %d calls, want 10", len(script.Calls))
	}
	if got := NotCalled([]fakeapi.Turn{script}, calls, defs); len(got) != 0 {
		t.Errorf("every scripted call was made, yet NotCalled = %+v", got)
	}

	hidden := slices.Clone(defs)
	i := slices.IndexFunc(hidden, func(d ToolDef) bool { return d.Tool == "list_bins" })
	hidden[i].Via = ViaNone
	more := []fakeapi.Turn{{Tool: "result_text"}, script, {Calls: []fakeapi.Call{{Tool: "lab_ping"}, {Tool: "no_such_tool"}, {Tool: "list_bins"}}}}
	want := []Missed{
		{Tool: "result_text", Why: MissedNoCall}, // scripted twice, made once
		{Tool: "lab_ping", Why: MissedNoCall},
		{Tool: "no_such_tool", Why: MissedNotListed},
		{Tool: "list_bins", Why: MissedNotOffered},
	}
	if diff := cmp.Diff(want, NotCalled(more, calls, hidden)); diff != "" {
		t.Errorf("NotCalled mismatch (-want +got):\n%s", diff)
	}

	k := slices.IndexFunc(calls, func(c CallFacts) bool { return c.Tool == "result_both" })
	without := slices.Delete(slices.Clone(calls), k, k+1)
	want = []Missed{{Tool: "result_both", Why: MissedNoCall}}
	if diff := cmp.Diff(want, NotCalled([]fakeapi.Turn{script}, without, defs)); diff != "" {
		t.Errorf("with result_both's call taken out, NotCalled mismatch (-want +got):\n%s", diff)
	}
}
