package assess

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/instrlab/instrlab/internal/probe"
	"github.com/instrlab/instrlab/internal/profiles"
)

// TestAssessToolsFailed: a tools/list that failed is a failing finding,
// not "0 tools"; -32601 from a server without the tools capability is not.
func TestAssessToolsFailed(t *testing.T) {
	text := "Use the tools."
	for _, tt := range []struct {
		caps      []string
		err, want string
	}{
		{[]string{"tools"}, "tools/list: error -32603: database is locked", "fail tools-failed"},
		{nil, "tools/list: error -32601: method not found", "info no-tools"},
	} {
		l := ok(probe.Legacy, &text)
		l.Capabilities, l.ToolsError = tt.caps, tt.err
		rep := Assess([]probe.Result{result(l, notFound(), probe.Survival{Verdict: probe.SurvivalMethodNotFound}, 0)}, Options{Profiles: builtin(t)})
		var got []string
		for _, f := range rep.Servers[0].Findings {
			got = append(got, f.Level+" "+string(f.Code))
		}
		if !strings.Contains(strings.Join(got, ","), tt.want) {
			t.Errorf("%q: findings %q lack %q", tt.err, got, tt.want)
		}
	}
}

// TestAssessExitAtStart: a server that exits whatever it is sent is said
// to exit at start, not on server/discover.
func TestAssessExitAtStart(t *testing.T) {
	exit := func(era probe.Era, method string) probe.EraResult {
		return probe.EraResult{Era: era, Method: method, Outcome: probe.OutcomeExit, Detail: "exited with status 1 without replying; stderr: missing API_KEY"}
	}
	r := result(exit(probe.Legacy, "initialize"), exit(probe.Modern, "server/discover"), probe.Survival{Verdict: probe.SurvivalExitAtStart}, 0)
	rep := Assess([]probe.Result{r}, Options{Profiles: builtin(t)})
	f := rep.Servers[0].Findings
	if len(f) != 1 || f[0].Code != "unreachable" || !strings.Contains(f[0].Message, "exits at start, whatever it is sent") || strings.Contains(f[0].Message, "on server/discover") {
		t.Errorf("findings %+v: want one, exits at start", f)
	}
}

// TestAssessUnset: an unset ${VAR} of the config is reported.
func TestAssessUnset(t *testing.T) {
	text := "x"
	r := result(ok(probe.Legacy, &text), notFound(), probe.Survival{Verdict: probe.SurvivalMethodNotFound}, 0)
	r.Target.Unset = []string{"API_TOKEN"}
	rep := Assess([]probe.Result{r}, Options{Profiles: builtin(t)})
	if f := rep.Servers[0].Findings[0]; f.Code != "unset-var" || !strings.Contains(f.Message, `"${API_TOKEN}"`) {
		t.Errorf("first finding %+v, want unset-var naming ${API_TOKEN}", f)
	}
}

// TestRedactedAnswer: a key-shaped value in a tool's name, which reaches a
// finding's tool and loss, a problem's tools and a verdict's loss, is
// hidden in each once the report is redacted, and measured before.
func TestRedactedAnswer(t *testing.T) {
	key := "ghp_16C7e42F292c6912E7710c838347Ae178B4a"
	p := surfaceProfile()
	r := result(ok(probe.Legacy, nil, probe.Tool{Name: "get_" + key, OutputSchema: []byte(`{"type":"object"}`)}), notFound(), probe.Survival{}, 0)
	rep := Assess([]probe.Result{r}, Options{Profiles: []profiles.Profile{p}})
	if raw, _ := json.Marshal(rep); !strings.Contains(string(raw), key) {
		t.Fatalf("the tool's name is not in the report before redaction: %s", raw)
	}
	raw, err := json.Marshal(rep.Redacted())
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(raw), key) {
		t.Errorf("the key is printed once redacted: %s", raw)
	}
	if s := rep.Redacted().Servers[0]; len(s.Problems) == 0 || len(s.Verdicts) == 0 {
		t.Errorf("no problem or verdict to redact: %+v %+v", s.Problems, s.Verdicts)
	}
}
