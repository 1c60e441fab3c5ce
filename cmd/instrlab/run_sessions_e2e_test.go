package main

import (
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/instrlab/instrlab/internal/matrix/analyze"
)

// TestE2ESessions runs the sessions matrix on the real Claude Code
// (2.1.332, about 20 s at load 28): each row is a conversation of five
// requests (three model turns, two loadings of a deferred lab tool), and
// the comparison from turn to turn is what docs/clients.md says of it:
// each loading adds a tool to the tools, the first turn after the first
// rewrites the system message holding the instructions from a block list
// to a string (the same text), the other turns repeat the one before byte
// for byte; the deferred tools are named sorted by name, whatever order
// the lab listed them in (the rotate and reconnect rows). In the
// reconnect row the lab loses the session after the first tools/call:
// before the last turn the client opens new sessions (two at once in the
// runs measured) without listing the tools again, sends the call again,
// keeps the first session's instructions (the new sessions' texts are
// their own), and the prefix holds as in the other rows.
func TestE2ESessions(t *testing.T) {
	if os.Getenv("INSTRLAB_E2E") != "1" {
		t.Skip("set INSTRLAB_E2E=1 to run Claude Code end to end (npm install on first use)")
	}
	results := runE2E(t, "-client", "claude-code", "-matrix", "sessions", "-lab", binary, "-j", "2", "-timeout", "180s")
	if len(results) != 3 {
		t.Fatalf("%d results, want the three rows", len(results))
	}
	type pair struct {
		Changed             []string
		Instructions, Tools string
	}
	want := []pair{
		{[]string{"tools", "messages[1] (same text, another form)"}, "same message, another form: messages[1].content[0].text → messages[1].content", "added"},
		{nil, "same place", "same"},
		{[]string{"tools"}, "same place", "1 → 2"},
		{nil, "same place", "same"},
	}
	for _, r := range results {
		s := r.Session
		if r.Status != "ok" || s == nil {
			t.Fatalf("%s: %s (%s), session %v", r.Row, r.Status, r.Reason, s)
		}
		var got []pair
		for _, p := range s.Pairs {
			got = append(got, pair{p.Changed, p.Instructions, p.Tools})
			if p.Of == 0 || (p.Same == p.Of) != p.Stable {
				t.Errorf("%s %d → %d: %d of %d bytes the same, stable %v", r.Row, p.From, p.To, p.Same, p.Of, p.Stable)
			}
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s: pairs mismatch (-want +got):\n%s", r.Row, diff)
		}
		order, in := "", ""
		if r.Row != "turns3" {
			order, in = analyze.ToolOrderName, analyze.OfferedNamed
		}
		for i, p := range s.Pairs {
			reopen := r.Row == "turns3-reconnect" && i == len(s.Pairs)-1
			if (p.Sessions() > 0) != reopen || p.Relisted() || p.Texts != "" {
				t.Errorf("%s %d → %d: %d new sessions (%q), texts %q; want them only before the reconnect row's last turn, the tools not listed again, the first session's text kept", r.Row, p.From, p.To, p.Sessions(), p.Reopened, p.Texts)
			}
		}
		if s.Stable || s.ToolOrder != order || s.OfferedIn != in {
			t.Errorf("%s: stable %v, tool order %q read from %q; want unstable, %q from %q", r.Row, s.Stable, s.ToolOrder, s.OfferedIn, order, in)
		}
	}
}
