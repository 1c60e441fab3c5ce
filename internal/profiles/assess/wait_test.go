package assess

import (
	"strings"
	"testing"
	"time"

	"github.com/instrlab/instrlab/internal/probe"
	"github.com/instrlab/instrlab/internal/profiles"
)

func TestJSParseInt(t *testing.T) {
	for in, want := range map[string]int64{"60000": 60000, " 45000": 45000, "25,000": 25, "10s": 10, "-5": -5, "+7": 7, "0": 0} {
		if got, ok := jsParseInt(in); !ok || got != want {
			t.Errorf("jsParseInt(%q) = %d, %v; want %d", in, got, ok, want)
		}
	}
	for _, in := range []string{"", "abc", "-", " s10"} {
		if _, ok := jsParseInt(in); ok {
			t.Errorf("jsParseInt(%q) is a number, want NaN", in)
		}
	}
}

// TestStartupWait: MCP_TIMEOUT is read as Claude Code reads it, and a
// silence check gave up on sooner than a client would is "not measured
// beyond" check's timeout, naming the client's wait.
func TestStartupWait(t *testing.T) {
	p := builtin(t)[0]
	for value, want := range map[string]time.Duration{"": 30 * time.Second, "60000": time.Minute, "0": 30 * time.Second, "abc": 30 * time.Second, "25,000": 25 * time.Millisecond} {
		getenv := func(string) (string, bool) { return value, value != "" }
		if got := startupWait(p, getenv); got.d != want {
			t.Errorf("MCP_TIMEOUT=%q: wait %v, want %v", value, got.d, want)
		}
	}
	silent := probe.EraResult{Era: probe.Legacy, Method: "initialize", Outcome: probe.OutcomeSilent, Detail: "no reply within 10s"}
	modern := silent
	modern.Era, modern.Method = probe.Modern, "server/discover"
	r := result(silent, modern, probe.Survival{Verdict: probe.SurvivalSilent}, 0)
	r.Startup = probe.Startup{}
	rep := Assess([]probe.Result{r}, Options{Profiles: builtin(t), Timeout: 10 * time.Second})
	msg := rep.Servers[0].Findings[0].Message
	for _, want := range []string{"not measured beyond 10s", "and Claude Code 2.1.285 wait longer"} {
		if !strings.Contains(msg, want) {
			t.Errorf("finding %q lacks %q", msg, want)
		}
	}
	all, err := profiles.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	rep = Assess([]probe.Result{r}, Options{Profiles: all, Timeout: 10 * time.Second})
	if msg := rep.Servers[0].Findings[0].Message; !strings.Contains(msg, "how long Claude Code 2.1.328, Codex CLI 0.169.0, Grok CLI 0.0.34 wait is not measured") {
		t.Errorf("finding %q does not say 2.1.328's wait is not measured", msg)
	}
	rep = Assess([]probe.Result{r}, Options{Profiles: builtin(t), Timeout: time.Minute})
	if msg := rep.Servers[0].Findings[0].Message; strings.Contains(msg, "not measured beyond") {
		t.Errorf("check waited longer than the client, yet: %q", msg)
	}
}

// TestMeasuredWaitInTime: a server slower than check waited (silent for
// all of -timeout), or one that answered late, is judged per client from
// the wait budget its profile measured (instrlab budget), or said to be
// not measured; issue 28 found check saying "nothing" without a word on
// how long a client waits.
func TestMeasuredWaitInTime(t *testing.T) {
	all, err := profiles.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	ps, err := profiles.Select(t.Context(), all, []string{"gemini@0.61.0", "opencode@1.18.33", "cline@3.0.65", "qwen@0.24.4"})
	if err != nil {
		t.Fatal(err)
	}
	budget := func(within, past float64, above bool, what string) []profiles.Budget {
		return []profiles.Budget{{Name: profiles.BudgetWait, Unit: "s", Within: within, Past: past, Above: above, PastBudget: what, Runs: 9, Date: "2026-12-02"}}
	}
	ps[0].Budgets = budget(60, 0, true, "blocks the first request until the server is ready")
	ps[1].Budgets = budget(29.6, 31.1, false, "drops the server (status failed)")
	ps[2].Budgets = budget(2.9, 3.1, false, "sends the first request without the server (status pending)")
	ps[3].Budgets = nil // not measured (the built-in one now carries a measured budget)
	silent := probe.EraResult{Era: probe.Legacy, Method: "initialize", Outcome: probe.OutcomeSilent, Detail: "no reply within 10s"}
	modern := silent
	modern.Era, modern.Method = probe.Modern, "server/discover"
	r := result(silent, modern, probe.Survival{Verdict: probe.SurvivalSilent}, 0)
	r.Startup = probe.Startup{}
	late := result(ok(probe.Legacy, str("Use the tools.")), notFound(), probe.Survival{Verdict: probe.SurvivalMethodNotFound}, 12*time.Second)
	for _, tc := range []struct {
		name string
		r    probe.Result
		want map[string]string // client → what its finding says
	}{
		{"silent for check's 10 s", r, map[string]string{
			"Gemini CLI 0.61.0": "no reply within check's -timeout 10s: it waits at least 60.0 s (measured: instrlab budget, 9 runs, 2026-12-02): a reply within that reaches it",
			"opencode 1.18.33":  "it waits 29.6 s–31.1 s (measured: instrlab budget, 9 runs, 2026-12-02): it gets this server only if it answers within that (check waited 10s, not beyond); past it the client drops the server (status failed)",
			"Cline CLI 3.0.65":  "it waits 2.9 s–3.1 s (measured: instrlab budget, 9 runs, 2026-12-02), and this server did not answer within 10s: too late for it; past it the client sends the first request without the server (status pending)",
			"Qwen Code 0.24.4":  "how long the client waits for a server is not measured",
		}},
		{"first reply after 12 s", late, map[string]string{
			"Cline CLI 3.0.65": "first reply after 12s, later than it waits, 2.9 s–3.1 s (measured: instrlab budget, 9 runs, 2026-12-02): too late for it",
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rep := Assess([]probe.Result{tc.r}, Options{Profiles: ps, Timeout: 10 * time.Second})
			got := map[string]string{}
			for _, f := range rep.Servers[0].Findings {
				if f.Code != StartupSlow {
					continue
				}
				for _, h := range f.For {
					got[h.Client] = f.Message
				}
			}
			if len(got) != len(tc.want) {
				t.Errorf("startup-slow for %d clients, want %d: %v", len(got), len(tc.want), got)
			}
			for client, want := range tc.want {
				if !strings.Contains(got[client], want) {
					t.Errorf("%s: finding %q lacks %q", client, got[client], want)
				}
			}
		})
	}
}

// TestLateServerInNoEra: a server whose first reply came later than a
// client waits at most, by its measured wait budget, is in no era for
// that client, and the view says what the client does then (issue 28:
// Droid 0.225.2 waits at most 111 ms, a node server took 300 ms and
// more, and check predicted its text reached the model); a reply inside
// the budget's range is a race, not late; a client that blocks, or one
// whose budget is not measured, is not judged late.
func TestLateServerInNoEra(t *testing.T) {
	all, err := profiles.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	ps, err := profiles.Select(t.Context(), all, []string{"gemini@0.61.0", "cline@3.0.65", "qwen@0.24.4"})
	if err != nil {
		t.Fatal(err)
	}
	ps[0].Budgets = []profiles.Budget{{Name: profiles.BudgetWait, Unit: "s", Within: 60, Above: true, PastBudget: "blocks the first request until the server is ready", Runs: 9, Date: "2026-12-02"}}
	ps[1].Budgets = []profiles.Budget{{Name: profiles.BudgetWait, Unit: "s", Within: 2.9, Past: 3.1, PastBudget: "sends the first request without the server (status pending)", Runs: 9, Date: "2026-12-02"}}
	ps[2].Budgets = nil
	tools := []probe.Tool{{Name: "lookup", Description: "Look up a part."}}
	for _, tc := range []struct {
		name  string
		after time.Duration
		late  []bool
	}{
		{"12 s", 12 * time.Second, []bool{false, true, false}},
		{"3.0 s, inside Cline's range", 3 * time.Second, []bool{false, false, false}},
		{"3.1 s", 3100 * time.Millisecond, []bool{false, true, false}},
	} {
		r := result(ok(probe.Legacy, str("Use the tools."), tools...), notFound(), probe.Survival{Verdict: probe.SurvivalMethodNotFound}, tc.after)
		rep := Assess([]probe.Result{r}, Options{Profiles: ps, Timeout: 20 * time.Second})
		for i, v := range rep.Servers[0].Views {
			if got := v.Late != ""; got != tc.late[i] {
				t.Errorf("%s, %s: late %q, want late %v", tc.name, v.Title, v.Late, tc.late[i])
				continue
			}
			if !tc.late[i] {
				if v.Era != probe.Legacy || !v.Present {
					t.Errorf("%s, %s: era %q, present %v: want the legacy era's text", tc.name, v.Title, v.Era, v.Present)
				}
				continue
			}
			want := "later than the client waits, 2.9 s–3.1 s (measured: instrlab budget, 9 runs, 2026-12-02): past it the client sends the first request without the server (status pending)"
			if v.Era != "" || v.KeptChars != 0 || len(v.Tools) != 0 || v.Late != "sends the first request without the server (status pending)" || !strings.Contains(v.Why, want) {
				t.Errorf("%s, %s: era %q, kept %d, tools %v, late %q, why %q: want no era, nothing kept, and %q", tc.name, v.Title, v.Era, v.KeptChars, v.Tools, v.Late, v.Why, want)
			}
		}
	}
	r := result(ok(probe.Legacy, str("Use the tools.")), notFound(), probe.Survival{Verdict: probe.SurvivalMethodNotFound}, 12*time.Second)
	r.Target.Transport = probe.TransportHTTP
	for _, v := range Assess([]probe.Result{r}, Options{Profiles: ps, Timeout: 20 * time.Second}).Servers[0].Views {
		if v.Late != "" {
			t.Errorf("over HTTP, %s: late %q: the budgets are measured over stdio", v.Title, v.Late)
		}
	}
}

// TestSampleAbove: check times more start-ups from a quarter of the
// shortest wait of 100 ms or more (Codex CLI 0.171.0's, measured at
// 1.19 s), not Droid's 12 ms, which any server races; with no wait, none.
func TestSampleAbove(t *testing.T) {
	all, err := profiles.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	d, ok := SampleAbove(all, nil)
	if !ok || d < 250*time.Millisecond || d > 350*time.Millisecond {
		t.Errorf("SampleAbove of the built-in profiles: %v, %v; want about 300 ms", d, ok)
	}
	if _, ok := SampleAbove([]profiles.Profile{{Client: "x", Version: "1"}}, nil); ok {
		t.Error("a profile without a wait gives a threshold")
	}
}
