package budget

import (
	"strings"
	"testing"

	"github.com/instrlab/instrlab/internal/matrix/analyze"
)

func TestWaitOutcomeWithoutASignal(t *testing.T) {
	ms := func(v float64) *float64 { return &v }
	cases := []struct {
		name   string
		hold   float64
		timing analyze.Timing
		within bool
		failed string
	}{
		{"server in the request", 0, analyze.Timing{HadServer: true, LeadMS: ms(300)}, true, ""},
		{"ready after the request, not in it", 0, analyze.Timing{LeadMS: ms(-1500)}, false, ""},
		{"no readiness known, not in it", 0, analyze.Timing{}, false, ""},
		// Droid 0.225.2: ready 0.3 s before its first request, which shows
		// neither the server's text nor its tools (behind ToolSearch).
		{"ready before the request, not in it", 0, analyze.Timing{LeadMS: ms(300)}, false, "cannot tell whether it waited"},
		// Near a budget's edge the same is a race, and the search goes on.
		{"held, ready just before the request, not in it", 2.5, analyze.Timing{LeadMS: ms(40)}, false, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			o := waitOutcome(c.hold, analyze.Result{Status: "ok", Timing: c.timing})
			if o.Within != c.within {
				t.Errorf("within %v, want %v", o.Within, c.within)
			}
			if c.failed == "" && o.Failed != "" || !strings.Contains(o.Failed, c.failed) {
				t.Errorf("failed %q, want %q", o.Failed, c.failed)
			}
		})
	}
}
