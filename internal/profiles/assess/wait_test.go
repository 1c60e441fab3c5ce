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
	for _, want := range []string{"not measured beyond 10s", "Claude Code 2.1.285 in arm v2 waits 30s (MCP_TIMEOUT, default)"} {
		if !strings.Contains(msg, want) {
			t.Errorf("finding %q lacks %q", msg, want)
		}
	}
	all, err := profiles.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	rep = Assess([]probe.Result{r}, Options{Profiles: all, Timeout: 10 * time.Second})
	if msg := rep.Servers[0].Findings[0].Message; !strings.Contains(msg, "how long Claude Code 2.1.328 in arm v2 and") {
		t.Errorf("finding %q does not say 2.1.328's wait is not measured", msg)
	}
	rep = Assess([]probe.Result{r}, Options{Profiles: builtin(t), Timeout: time.Minute})
	if msg := rep.Servers[0].Findings[0].Message; strings.Contains(msg, "not measured beyond") {
		t.Errorf("check waited longer than the client, yet: %q", msg)
	}
}
