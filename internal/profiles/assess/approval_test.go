package assess

import (
	"strings"
	"testing"
	"time"

	"github.com/instrlab/instrlab/internal/probe"
	"github.com/instrlab/instrlab/internal/profiles"
)

// TestApprovalFact: check predicts each of a server's tools by the class
// of its annotations from what Claude Code 2.1.332's profile measured on
// the lab's tools of that class: in plan mode a read-only tool met a
// check that does not run offline, the others were refused outright; a
// class the lab never served (destructiveHint false, not read-only) is
// not measured. A profile without approval runs says not measured.
func TestApprovalFact(t *testing.T) {
	all, err := profiles.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	ps, err := profiles.Select(t.Context(), all, []string{"claude-code@2.1.332", "codex@0.169.0"})
	if err != nil {
		t.Fatal(err)
	}
	no := false
	r := result(ok(probe.Legacy, str("Use the tools."),
		probe.Tool{Name: "search", Annotations: map[string]any{"readOnlyHint": true}},
		probe.Tool{Name: "delete_all", Annotations: map[string]any{"destructiveHint": true}},
		probe.Tool{Name: "plain"},
		probe.Tool{Name: "append", Annotations: map[string]any{"destructiveHint": no}},
	), notFound(), probe.Survival{}, 5*time.Millisecond)
	fact := func(p profiles.Profile) Fact {
		for _, f := range view(p, r, func(string) (string, bool) { return "", false }, nil).Facts {
			if f.Name == approvalFactName {
				return f
			}
		}
		t.Fatalf("%s: no fact %q", p.ID(), approvalFactName)
		return Fact{}
	}
	got := fact(ps[0])
	for _, want := range []string{
		`its default mode, no tool approved beforehand: 3 of 4 tools ["search", "delete_all", "plain"] refused, the model told "Claude requested permissions to use TOOL, but you haven't granted it yet.", 1 of 4 tools ["append"] not measured (annotations not destructive)`,
		`plan mode: 1 of 4 tools ["search"] refused, the model told "Auto mode is unavailable: its safety check does not run for this session`,
		`2 of 4 tools ["delete_all", "plain"] refused, the model told "Cannot call TOOL while in plan mode."`,
	} {
		if !got.Measured || !strings.Contains(got.Value, want) {
			t.Errorf("Claude Code 2.1.332: %+v, want it to hold %q", got, want)
		}
	}
	if got := fact(ps[1]); got.Measured || got.Value != NotMeasured {
		t.Errorf("Codex CLI 0.169.0, no approval runs: %+v, want not measured", got)
	}
}
