package assess

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/instrlab/instrlab/internal/probe"
	"github.com/instrlab/instrlab/internal/profiles"
)

// TestSeverityTable is the severity owner as a table: each kind of loss,
// its severity and the reason given for it. A code's severity is its
// Doc's; a schema keyword's is keywordSeverity's; a start-up's is the
// distribution's against the wait (TestStartupSeverity).
func TestSeverityTable(t *testing.T) {
	codes := []struct {
		code Code
		want Severity
		why  string
	}{
		{Unreachable, Broken, "no client can use the server"},
		{ToolsFailed, Broken, "no client gets the server's tools"},
		{DropsServer, Broken, "the client loses the whole server"},
		{EndsSession, Broken, "every other"},
		{Unused, Broken, "none of the instructions"},
		{NameDropped, Broken, "cannot call the tool"},
		{LegacyRefused, Broken, "do not probe lose the server"},
		{Truncated, Degraded, "the end of the instructions"},
		{ToolTruncated, Degraded, "a tool's description"},
		{ResultForm, Degraded, "one part of the result"},
		{ResultCut, Degraded, "part of the result"},
		{SchemaLost, Degraded, "a constraint of the input it needs"},
		{NameCut, Degraded, "a cut name"},
		{StartupSlow, Degraded, "a race"},
		{NameRenamed, Info, "the call still reaches the server"},
		{ToolOrder, Info, "the model loses nothing"},
		{TextsUnseen, Info, "for the record"},
		{MaxChars, Info, "a limit you set"},
		{ProbeOK, Info, "the behaviour to have"},
	}
	for _, c := range codes {
		d := c.code.Doc()
		if d.Severity != c.want || !strings.Contains(d.Why, c.why) {
			t.Errorf("%s: %s (%s), want %s (%s)", c.code, d.Severity, d.Why, c.want, c.why)
		}
	}
	keywords := []struct {
		words, example string
		want           Severity
		why            string
	}{
		{"`$schema` (top level)", "", Info, "dialect"},
		{"`$id` (top level)", "", Info, "names the schema"},
		{"`title`", "", Info, "a label"},
		{"`examples`", "", Info, "not a constraint"},
		{"`default`", "", Info, "the server applies its default"},
		{"`const`", `const: "fixed" became {"enum":["fixed"],"type":"string"} (schema_const)`, Info, "the same constraint"},
		{"`const`", `const: "fixed" became {"type":"string"} (schema_const)`, Degraded, "a constraint"},
		{"`enum`", "", Degraded, "a constraint"},
		{"`pattern`", "", Degraded, "a constraint"},
		{"`maximum`", "", Degraded, "a constraint"},
		{"`required` (top level)", "", Degraded, "a constraint"},
		{"`anyOf`", "", Degraded, "a constraint"},
		{"`type` (a list of types with null)", "", Degraded, "a constraint"},
		{"`$ref`", "", Degraded, "a structure"},
		{"`additionalProperties` (top level)", "", Degraded, "a constraint"},
		// Copilot CLI 1.0.102 moves bounds into the description.
		{"`maximum`", `maximum: 10 became {"description":"{minimum: 1, maximum: 10}","type":"integer"} (schema_bounds)`, Info, "still reads it"},
		{"`maximum`", `maximum: 10 became {"description":"{minimum: 1}","type":"integer"} (schema_bounds)`, Degraded, "a constraint"},
	}
	for _, k := range keywords {
		got, why := keywordSeverity(k.words, k.example)
		if got != k.want || !strings.Contains(why, k.why) {
			t.Errorf("%s: %s (%s), want %s (%s)", k.words, got, why, k.want, k.why)
		}
	}
	for _, s := range []struct {
		s    Severity
		want Verdict
	}{{Broken, VerdictBroken}, {Degraded, VerdictDegraded}, {Info, Works}} {
		if got := VerdictOf(s.s); got != s.want {
			t.Errorf("VerdictOf(%s) = %s, want %s", s.s, got, s.want)
		}
	}
	if !Broken.Worse(Degraded) || !Degraded.Worse(Info) || Info.Worse(Broken) {
		t.Error("the severities are not ordered broken, degraded, info")
	}
}

// waitProfile is a client whose measured wait budget is 1.2-1.3 s, as
// Codex CLI 0.171.0's, dropping a server past it.
func waitProfile() profiles.Profile {
	p := profiles.Profile{Client: "w", Version: "1", Name: "Waiter"}
	p.Budgets = []profiles.Budget{{Name: WaitBudget, Unit: "s", Within: 1.2, Past: 1.3, Runs: 9, Date: "2026-12-02", PastBudget: "drops the server"}}
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
		want        Severity
		loss        string
		era         probe.Era
	}{
		{"late", 1500 * time.Millisecond, 1600 * time.Millisecond, Broken, "drops the server: up after 1.5 s, it waits 1.2–1.3 s", ""},
		{"race", 900 * time.Millisecond, 1250 * time.Millisecond, Degraded, "a race: up after 1.2 s at most, it waits 1.2–1.3 s", probe.Legacy},
		{"in time", 700 * time.Millisecond, 800 * time.Millisecond, Info, "up after 800 ms at most, within its wait of 1.2–1.3 s", probe.Legacy},
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
			if s.Views[0].Era != tt.era {
				t.Errorf("era %q, want %q", s.Views[0].Era, tt.era)
			}
			wantVerdict := VerdictOf(tt.want)
			if v := s.Verdicts[0]; v.Verdict != wantVerdict {
				t.Errorf("verdict %s (%v), want %s", v.Verdict, v.Because, wantVerdict)
			}
		})
	}
}
