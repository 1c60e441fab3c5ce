package assess

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/instrlab/instrlab/internal/loss"
	"github.com/instrlab/instrlab/internal/probe"
	"github.com/instrlab/instrlab/internal/profiles"
)

// TestSeverityTable: each code's severity and the reason given for it
// (its Doc); a schema keyword's is loss.Keyword's (internal/loss); a
// start-up's is the distribution's against the wait
// (TestStartupSeverity).
func TestSeverityTable(t *testing.T) {
	codes := []struct {
		code Code
		want loss.Severity
		why  string
	}{
		{Unreachable, loss.Broken, "no client can use the server"},
		{ToolsFailed, loss.Broken, "no client gets the server's tools"},
		{DropsServer, loss.Broken, "the client loses the whole server"},
		{EndsSession, loss.Broken, "every other"},
		{Unused, loss.Broken, "none of the instructions"},
		{NameDropped, loss.Broken, "cannot call the tool"},
		{LegacyRefused, loss.Broken, "do not probe lose the server"},
		{Truncated, loss.Degraded, "the end of the instructions"},
		{ToolTruncated, loss.Degraded, "a tool's description"},
		{ResultForm, loss.Degraded, "one part of the result"},
		{ResultCut, loss.Degraded, "part of the result"},
		{SchemaLost, loss.Degraded, "a constraint of the input it needs"},
		{NameCut, loss.Degraded, "a cut name"},
		{StartupSlow, loss.Degraded, "a race"},
		{NameRenamed, loss.Info, "the call still reaches the server"},
		{ToolOrder, loss.Info, "the model loses nothing"},
		{TextsUnseen, loss.Info, "for the record"},
		{MaxChars, loss.Info, "a limit you set"},
		{ProbeOK, loss.Info, "the behaviour to have"},
	}
	for _, c := range codes {
		d := c.code.Doc()
		if d.Severity != c.want || !strings.Contains(d.Why, c.why) {
			t.Errorf("%s: %s (%s), want %s (%s)", c.code, d.Severity, d.Why, c.want, c.why)
		}
	}
}

// waitProfile is a client whose measured wait budget is 1.2-1.3 s, as
// Codex CLI 0.171.0's, dropping a server past it.
func waitProfile() profiles.Profile {
	p := profiles.Profile{Client: "w", Version: "1", Name: "Waiter"}
	p.Budgets = []profiles.Budget{{Name: profiles.BudgetWait, Unit: "s", Within: 1.2, Past: 1.3, Runs: 9, Date: "2026-12-02", PastBudget: "drops the server"}}
	return p
}

// TestStartupSeverity: a start-up is judged from its distribution
// against the client's wait: past it at the median, the client drops the
// server (broken, and the view is in no era); the slowest sample where
// the client gives up is a race (degraded); all within it, a note.
func TestStartupSeverity(t *testing.T) {
	for _, tt := range []struct {
		name        string
		median, max time.Duration
		want        loss.Severity
		loss        string
		era         probe.Era
	}{
		{"late", 1500 * time.Millisecond, 1600 * time.Millisecond, loss.Broken, "drops the server: up after 1.5 s, it waits 1.2–1.3 s", ""},
		{"race", 900 * time.Millisecond, 1250 * time.Millisecond, loss.Degraded, "a race: up after 1.2 s at most, it waits 1.2–1.3 s", probe.Legacy},
		{"in time", 700 * time.Millisecond, 800 * time.Millisecond, loss.Info, "up after 800 ms at most, within its wait of 1.2–1.3 s", probe.Legacy},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := result(ok(probe.Legacy, nil), notFound(), probe.Survival{Verdict: probe.SurvivalMethodNotFound}, 0)
			st := probe.Stats{N: 4, Median: probe.Millis(tt.median), Max: probe.Millis(tt.max)}
			r.Startup = probe.Startup{Legacy: st, Modern: st}
			s := Assess([]probe.Result{r}, Options{Profiles: []profiles.Profile{waitProfile()}}).Servers[0]
			var got []string
			for _, f := range s.Findings {
				if f.Code == StartupSlow {
					got = append(got, string(f.Severity)+": "+f.Loss)
				}
			}
			if diff := cmp.Diff([]string{string(tt.want) + ": " + tt.loss}, got); diff != "" {
				t.Errorf("start-up findings mismatch (-want +got):\n%s", diff)
			}
			r.Startup.Load, r.Startup.CPUs = 6, 2 // loaded: the late one may be in time on a quiet machine
			s = Assess([]probe.Result{r}, Options{Profiles: []profiles.Profile{waitProfile()}}).Servers[0]
			for _, f := range s.Findings {
				if f.Code != StartupSlow {
					continue
				}
				if !strings.Contains(f.Loss, " at load 6.0") || !strings.Contains(f.Message, "judged at load 6.0 on 2 CPUs") {
					t.Errorf("loaded: %q / %q does not name the load", f.Loss, f.Message)
				}
				if late := strings.Contains(f.Loss, "(may be in time on a quiet machine)"); late != (tt.want == loss.Broken) {
					t.Errorf("loaded: %q: says it may flip %v, want %v", f.Loss, late, tt.want == loss.Broken)
				}
			}
			if s.Views[0].Era != tt.era {
				t.Errorf("era %q, want %q", s.Views[0].Era, tt.era)
			}
			wantVerdict := loss.Of(tt.want)
			if v := s.Verdicts[0]; v.Verdict != wantVerdict {
				t.Errorf("verdict %s (%v), want %s", v.Verdict, v.Because, wantVerdict)
			}
		})
	}
}
