package budget

import (
	"strings"
	"testing"
	"time"

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

// TestLateServer: whether a late server reaches a later request is read
// only from the requests sent after it was ready. A second request sent
// before (the server held past it) says nothing, where it once read
// "lost for the session"; one after it that carries its text and tools
// says "from request 2", one that carries its tools alone "lost" for the
// text.
func TestLateServer(t *testing.T) {
	t0 := time.Date(2026, 12, 2, 12, 0, 0, 0, time.UTC)
	with := analyze.RequestFacts{Placements: []analyze.Placement{{Kept: 1000}}, Tools: []string{"mcp__lab__lookup_part"}}
	toolsOnly := analyze.RequestFacts{Tools: []string{"mcp__lab__lookup_part"}}
	// named: the tools named in a text only (Droid's list of deferred
	// tools), none defined.
	named := analyze.RequestFacts{Tools: []string{"Read"}, NamesLabTool: true}
	run := func(ready time.Duration, reqs ...analyze.RequestFacts) analyze.Result {
		r := analyze.Result{Sent: 1000}
		for i, q := range reqs {
			q.Time = t0.Add(time.Duration(i) * 10 * time.Second)
			r.Requests = append(r.Requests, q)
		}
		at := t0.Add(ready)
		r.Timing.ServerReady = &at
		return r
	}
	none := analyze.RequestFacts{Tools: []string{"Read"}}
	// gaveUp makes r a run whose server, held for hold from t0, was never
	// ready.
	gaveUp := func(r analyze.Result, hold time.Duration) analyze.Result {
		start := t0
		r.Timing.ServerStart, r.Timing.ServerReady = &start, nil
		r.Timing.HeldMS = float64(hold.Milliseconds())
		return r
	}
	for _, tt := range []struct {
		name string
		run  analyze.Result
		want string
	}{
		{"ready after the last request", run(60*time.Second, none, none), "not measured: no run past the budget made a request after its server was ready"},
		{"joins the next", run(5*time.Second, none, with), "instructions from request 2, tools from request 2 (2 requests, 1 of them after the server was ready)"},
		{"tools only", run(5*time.Second, none, toolsOnly, toolsOnly), "instructions lost for the session, tools from request 2 (3 requests, 2 of them after the server was ready)"},
		{"tools named in a text", run(5*time.Second, none, named), "instructions lost for the session, tools from request 2 (2 requests, 1 of them after the server was ready)"},
		{"joins the third", run(15*time.Second, none, none, with), "instructions from request 3, tools from request 3 (3 requests, 1 of them after the server was ready)"},
		// Claude Code 2.1.332 past its budget: it cancels its initialize,
		// the server is never ready, and the request after the hold ended
		// carries none of it.
		{"given up", gaveUp(run(0, none, none), 5*time.Second), "instructions and tools lost for the session: the client gave up on the server before it was ready (2 requests, 1 of them after its hold ended, none with it)"},
		{"given up, still held at the end", gaveUp(run(0, none, none), 30*time.Second), "not measured: no run past the budget"},
		{"given up, yet in a later request", gaveUp(run(0, none, toolsOnly), 5*time.Second), "not measured: no run past the budget"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := lateServer([]analyze.Result{tt.run}); !strings.HasPrefix(got, tt.want) {
				t.Errorf("lateServer = %q, want %q", got, tt.want)
			}
		})
	}
}

// TestGaveUpAndExited: only a failed run with a hold, whose server never
// answered its handshake and which made no model request, is the client
// giving up on a late server.
func TestGaveUpAndExited(t *testing.T) {
	t0 := time.Date(2026, 12, 2, 12, 0, 0, 0, time.UTC)
	ready, first := t0.Add(time.Second), t0.Add(2*time.Second)
	for _, tt := range []struct {
		name   string
		v      float64
		status string
		timing analyze.Timing
		want   bool
	}{
		{"gave up on a held server", 60, "failed", analyze.Timing{ServerStart: &t0}, true},
		{"ran fine", 60, "ok", analyze.Timing{ServerStart: &t0}, false},
		{"no hold: a crash, not the wait", 0, "failed", analyze.Timing{ServerStart: &t0}, false},
		{"the server was ready", 60, "failed", analyze.Timing{ServerStart: &t0, ServerReady: &ready}, false},
		{"the server answered only after the client had ended", 60, "failed", analyze.Timing{ServerStart: &t0, ServerReady: &ready}, true},
		{"after a model request", 60, "failed", analyze.Timing{ServerStart: &t0, FirstRequest: &first}, false},
		{"the server never started", 60, "failed", analyze.Timing{}, false},
		{"the server was ready, but the client says it failed", 60, "failed", analyze.Timing{ServerStart: &t0, ServerReady: &ready}, true},
		{"the client says it failed, and no hold", 0, "failed", analyze.Timing{ServerStart: &t0, ServerReady: &ready}, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := analyze.Result{Status: tt.status, Reason: "exit status 1", Timing: tt.timing, ClientMS: 5000}
			if strings.Contains(tt.name, "says it failed") {
				r.Observation.ServerStatus = "failed"
			}
			if strings.Contains(tt.name, "after the client had ended") {
				r.ClientMS = 500 // the client ended 0.5 s after the server started; it answered at 1 s
			}
			if got := gaveUpAndExited(tt.v, r); got != tt.want {
				t.Errorf("gaveUpAndExited = %v, want %v", got, tt.want)
			}
		})
	}
}
