package assess

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/instrlab/instrlab/internal/probe"
	"github.com/instrlab/instrlab/internal/profiles"
)

// TestAssessURLTarget: a server reached by URL is assessed with each
// profile's HTTP view (its handshake, cap and placement) where the
// profile has one, and is "not measured" where it has none (no era, no
// text kept, no finding, "not measured" in the clients table); the same
// texts over stdio keep the stdio values.
func TestAssessURLTarget(t *testing.T) {
	long := strings.Repeat("x", 3000)
	withView := builtin(t)[0]
	withView.HTTP = &profiles.HTTPView{Runs: 4, Probe: true,
		Instructions: profiles.Limit{Cap: 1000, Unit: profiles.UnitCodepoint, Marker: " [cut]", Measured: true},
		Render:       profiles.Render{Placement: "a user turn (messages[0])", Server: "{text}"},
		Discover:     "{_meta{clientCapabilities,clientInfo,protocolVersion=2026-07-28}}", Cache: "c", Sessions: "s", Note: "n"}
	noView := builtin(t)[0]
	noView.Version = "0.0.1"
	ps := []profiles.Profile{withView, noView}
	r := result(ok(probe.Legacy, str(long)), ok(probe.Modern, str(long)), probe.Survival{Verdict: probe.SurvivalModern}, time.Millisecond)
	stdio := Assess([]probe.Result{r}, Options{Profiles: ps}).Servers[0]
	r.Target = probe.Target{Name: "srv", Transport: probe.TransportHTTP, URL: "http://127.0.0.1:1/mcp"}
	http := Assess([]probe.Result{r}, Options{Profiles: ps}).Servers[0]

	type facts struct {
		Era                       probe.Era
		NotMeasured, Present, Cut bool
		Kept                      int
		Where                     string
		WhyHTTP, WhyNotMeasured   bool
	}
	of := func(v View) facts {
		return facts{Era: v.Era, NotMeasured: v.NotMeasured, Present: v.Present, Cut: v.Truncated, Kept: v.KeptChars, Where: v.Where,
			WhyHTTP: strings.Contains(v.Why, "over HTTP as measured (4 runs)"), WhyNotMeasured: v.Why == profiles.NoHTTPView}
	}
	var got []facts
	for _, v := range append(slices.Clone(http.Views), stdio.Views...) {
		got = append(got, of(v))
	}
	stdioWhere := withView.Render.Where()
	want := []facts{
		{Era: probe.Modern, Present: true, Cut: true, Kept: 1000, Where: "user turn", WhyHTTP: true},
		{NotMeasured: true, Where: NotMeasured, WhyNotMeasured: true},
		{Era: probe.Legacy, Present: true, Cut: true, Kept: 2048, Where: stdioWhere}, // 2.1.285 does not probe stdio; cap 2,048
		{Era: probe.Legacy, Present: true, Cut: true, Kept: 2048, Where: stdioWhere},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("views mismatch (-want +got):\n%s", diff)
	}
	for _, f := range http.Findings {
		for _, h := range f.For {
			if h.Profile == noView.ID() {
				t.Errorf("finding %s %q holds for %s, which has no HTTP view", f.Code, f.Message, h.Profile)
			}
		}
	}
	tab := Clients(http)
	var line []string
	for _, row := range tab.Rows {
		if strings.HasPrefix(row[0].Text, noView.Named()) {
			for _, c := range row {
				line = append(line, c.Text)
			}
		}
	}
	if len(line) < 2 || line[1] != NotMeasured {
		t.Errorf("clients table line of %s: %q, want era %q", noView.Named(), line, NotMeasured)
	}
}
