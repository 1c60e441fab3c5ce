package report

import (
	"strings"
	"testing"

	"github.com/instrlab/instrlab/internal/client"
	"github.com/instrlab/instrlab/internal/matrix/analyze"
	"github.com/instrlab/instrlab/internal/profiles"
	"github.com/instrlab/instrlab/internal/table"
	"github.com/instrlab/instrlab/internal/unit"
	"github.com/instrlab/instrlab/lab"
)

// TestSingleCutNamesItsUnit: a user's server serving 3,000 code points of
// "🚀x" through a client that counts UTF-16 units (Claude Code 2.1.328:
// "truncated from 4500 to 4096") is reported with the cap that check
// states for that client, in the same unit: 4,096 UTF-16 units, not the
// 2,730 code points kept; with no log line, the round cap says the same.
func TestSingleCutNamesItsUnit(t *testing.T) {
	text := strings.Repeat("🚀x", 1500)
	// What check says Claude Code 2.1.328 keeps of it, from its profile.
	ps, err := profiles.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	sel, err := profiles.Select(ps, []string{"claude-code@2.1.328"})
	if err != nil {
		t.Fatal(err)
	}
	cut := sel[0].Instructions.Apply(text, 0)
	checkSays := table.Num(cut.Cap) + " " + cut.Unit.Short()
	kept := cut.Kept // what the client kept, as measured (TestInferSingleCut)
	if kept != unit.UTF16.Prefix(text, 4096) {
		t.Fatalf("check keeps %d code points, the client 2,730", cut.KeptChars)
	}
	for _, truncations := range [][]client.Truncation{{{Server: "emoji", From: 4500, To: 4096}}, nil} {
		r := analyze.Result{Client: "claude-code@2.1.328", Row: "emoji", Status: "ok", Plain: true, Sent: 3000, Instr: "none", Server: "emoji",
			ServerTexts: &analyze.ServerTexts{Instructions: map[lab.Reply]string{lab.ReplyInitialize: text}},
			First:       &analyze.RequestFacts{Placements: []analyze.Placement{{Reply: lab.ReplyInitialize, Kept: unit.CodePoint.Count(kept)}}},
			Observation: client.Observation{Truncations: truncations}}
		g := newGrid(nil, []analyze.Result{r}, "")
		var b strings.Builder
		table.Text(&b, g.summaryTable())
		if !strings.Contains(b.String(), checkSays) || strings.Contains(b.String(), "2,730 characters") {
			t.Errorf("truncations %v: check says %q; run's summary:\n%s", truncations, checkSays, b.String())
		}
	}
}
