package report

import (
	"strings"
	"testing"
	"time"

	"github.com/instrlab/instrlab/internal/matrix/analyze"
)

// TestWriteTested: the "tested with" table names per client the version
// tested (a link to the evidence when given an https URL, none for any
// other target), the verdict with what decides it, and the day of the
// first model request; a client whose runs all failed is not measured,
// with the reason; server text is escaped; a second server adds a
// column; a run of the lab alone is an error.
func TestWriteTested(t *testing.T) {
	day := time.Date(2026, 12, 5, 23, 30, 0, 0, time.FixedZone("X", -3600))
	whole := analyze.Placement{Kept: 100, Full: true}
	arm := analyze.ArmFacts{Name: "default", Default: true}
	ok := analyze.Result{Client: "codex@0.172.0", Row: "srv", Server: "srv", Status: analyze.StatusOK, Arm: arm, Sent: 100,
		First:    &analyze.RequestFacts{Seq: 1, Tools: []string{"t"}, Placements: []analyze.Placement{whole}},
		Requests: []analyze.RequestFacts{{Seq: 1, Time: day}}, Tools: []analyze.ToolFacts{{Name: "t", Via: "definition", Found: true, Kept: 1, Full: true}}}
	cut := ok
	cut.Client = "claude-code@2.1.340"
	cut.First = &analyze.RequestFacts{Seq: 1, Tools: []string{"t"}, Placements: []analyze.Placement{{Kept: 40}}}
	failed := analyze.Result{Client: "gemini@0.62.0", Row: "srv", Server: "srv", Status: "failed", Arm: arm, Reason: "provisioning gemini@0.62.0: <b>|no</b>"}
	lab := analyze.Result{Client: "codex@0.172.0", Row: "en-1000", Status: analyze.StatusOK, Sent: 1000}

	var b strings.Builder
	rep := New(nil, []analyze.Result{ok, cut, failed, lab}, "")
	if err := rep.WriteTested(&b, "https://github.com/o/r/actions/runs/1"); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"| client | version | verdict | tested |",
		"| codex | [0.172.0](https://github.com/o/r/actions/runs/1) | works | 2026-12-06 |",
		"| claude-code | [2.1.340](https://github.com/o/r/actions/runs/1) | degraded: keeps 40 of 100 characters of instructions | 2026-12-06 |",
		`| gemini | [0.62.0](https://github.com/o/r/actions/runs/1) | not measured: no run finished: provisioning gemini@0.62.0: \<b\>\|no\</b\> | not measured |`,
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("the table lacks %q:\n%s", want, b.String())
		}
	}
	if strings.Contains(b.String(), "en-1000") {
		t.Errorf("the lab's row is in the table:\n%s", b.String())
	}

	other := ok
	other.Row, other.Server = "other", "other"
	b.Reset()
	rep = New(nil, []analyze.Result{ok, other}, "")
	rep.Link = "javascript:alert(1)"
	if err := rep.Write(&b, "tested"); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "| client | version | server | verdict | tested |") || !strings.Contains(b.String(), "| codex | 0.172.0 | other | works | 2026-12-06 |") {
		t.Errorf("two servers, a link that is not https:\n%s", b.String())
	}

	if err := New(nil, []analyze.Result{lab}, "").Write(&b, "tested"); err == nil || !strings.Contains(err.Error(), "no verdicts") {
		t.Errorf("a run of the lab alone: %v, want an error", err)
	}
}
