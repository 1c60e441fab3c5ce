package assess

import (
	"strings"
	"testing"
	"time"

	"github.com/instrlab/instrlab/internal/loss"
	"github.com/instrlab/instrlab/internal/probe"
	"github.com/instrlab/instrlab/internal/profiles"
)

// TestCallTime: a call that took as long as a run the client gave up on
// is "gives up" (broken, with what the client does then), one between
// the two sides of the budget a race (degraded), one longer than a
// client measured to wait for the longest tried not measured (info), and
// one well within it, or a client with no call budget, nothing.
func TestCallTime(t *testing.T) {
	edge := &profiles.Budget{Name: profiles.BudgetCall, Unit: "s", Within: 59.77, Past: 60.27,
		PastBudget: `gives up 60.0 s after the server got the call, cancels it; the model gets "MCP error -32001: Request timed out"`}
	above := &profiles.Budget{Name: profiles.BudgetCall, Unit: "s", Within: 120, Above: true}
	call := func(d time.Duration) []probe.CallResult {
		return []probe.CallResult{{Tool: "slow", Outcome: probe.OutcomeOK, Text: sized("done"), Elapsed: probe.Millis(d)}}
	}
	for _, tc := range []struct {
		name   string
		b      *profiles.Budget
		took   time.Duration
		time   string
		sev    loss.Severity
		saying string
	}{
		{"past", edge, 75 * time.Second, TimeGivesUp, loss.Broken, "its call took 75.0 s in check, and the client waits 59.8 s–60.3 s for a tool's result (measured); past that it gives up 60.0 s"},
		{"at the edge", edge, 60 * time.Second, TimeRace, loss.Degraded, "a race"},
		{"within", edge, 20 * time.Second, "", "", ""},
		{"beyond the longest measured", above, 150 * time.Second, TimeBeyond, loss.Info, "beyond that, not measured"},
		{"within the longest measured", above, 100 * time.Second, "", "", ""},
		{"no budget", nil, 500 * time.Second, "", "", ""},
	} {
		fs := callFates(callProfile(tc.b), call(tc.took))
		if len(fs) != 1 || fs[0].Time != tc.time {
			t.Errorf("%s: %+v, want time %q", tc.name, fs, tc.time)
			continue
		}
		var l findingList
		callTimeFindings(&l, View{Client: "X 1", Profile: "x@1", Calls: fs})
		switch {
		case tc.time == "" && len(l) > 0:
			t.Errorf("%s: findings %+v, want none", tc.name, l)
		case tc.time != "" && (len(l) != 1 || l[0].Code != CallSlow || l[0].Tool != "slow" || l[0].Severity != tc.sev || !strings.Contains(l[0].Message, tc.saying)):
			t.Errorf("%s: findings %+v, want one call-slow at %s saying %q", tc.name, l, tc.sev, tc.saying)
		}
		if line := callLines(fs)[0]; (tc.time != "") != strings.Contains(line, "it took") {
			t.Errorf("%s: line %q", tc.name, line)
		}
	}
	// Under a setting, a budget is not the default's.
	set := *edge
	set.Settings = map[string]string{"MCP_TOOL_TIMEOUT": "1000"}
	if fs := callFates(callProfile(&set), call(75*time.Second)); fs[0].Time != "" {
		t.Errorf("a budget under a setting judged the default: %+v", fs[0])
	}
	if f := callTimeFact(callProfile(nil)); f.Measured || f.Value != NotMeasured {
		t.Errorf("no budget: fact %+v", f)
	}
	if f := callTimeFact(callProfile(edge)); !f.Measured || !strings.HasPrefix(f.Value, "waits 59.8 s–60.3 s for a tool's result; past it, gives up") {
		t.Errorf("fact %+v", f)
	}
	if f := callTimeFact(callProfile(above)); f.Value != "waits for a tool's result at least 120.0 s, the longest measured" {
		t.Errorf("fact above: %+v", f)
	}
}
