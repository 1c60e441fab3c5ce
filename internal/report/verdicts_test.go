package report

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/instrlab/instrlab/internal/loss"
	"github.com/instrlab/instrlab/internal/matrix/analyze"
	"github.com/instrlab/instrlab/internal/surface"
)

// TestVerdicts: what each client did with a user's server, measured, per
// configuration, client and arm: each loss a run can measure gives its
// severity in check's words, runs that differ give the worst with its
// count, runs that all failed say why, and the lab's own rows get none.
func TestVerdicts(t *testing.T) {
	first := func(ps ...analyze.Placement) *analyze.RequestFacts {
		return &analyze.RequestFacts{Seq: 1, Tools: []string{"t"}, Placements: ps}
	}
	ok := func(client string, r analyze.Result) analyze.Result {
		r.Client, r.Row, r.Server, r.Status, r.Arm = client, "srv", "srv", analyze.StatusOK, analyze.ArmFacts{Name: "default", Default: true}
		return r
	}
	whole := analyze.Placement{Kept: 100, Full: true}
	start := time.Date(2026, 12, 5, 18, 57, 13, 0, time.UTC)
	at := func(ms int) *time.Time { t := start.Add(time.Duration(ms) * time.Millisecond); return &t }
	reached := []analyze.ToolFacts{{Name: "t", Via: "definition", Found: true, Kept: 10, Full: true}}
	call := func(parts ...surface.Found) *analyze.SurfaceFacts {
		return &analyze.SurfaceFacts{Calls: []surface.CallFacts{{Tool: "get", Reached: true, Following: 2, Parts: parts}}}
	}
	results := []analyze.Result{
		ok("a@1", analyze.Result{Sent: 100, First: first(whole), Tools: reached}),
		ok("none@1", analyze.Result{Sent: 100, First: first(), Tools: reached}),
		ok("cut@1", analyze.Result{Sent: 100, First: first(analyze.Placement{Kept: 40}), Tools: reached}),
		ok("late@1", analyze.Result{Sent: 100, First: first(), Requests: []analyze.RequestFacts{*first(), {Seq: 2, Placements: []analyze.Placement{whole}}}, Tools: reached}),
		ok("lost@1", analyze.Result{Sent: 0, First: first(), Tools: []analyze.ToolFacts{{Name: "t"}, {Name: "u"}}}),
		ok("hidden@1", analyze.Result{Sent: 100, First: first(whole), Tools: []analyze.ToolFacts{reached[0], {Name: "write_file"}}}),
		ok("desc@1", analyze.Result{Sent: 100, First: first(whole), Tools: []analyze.ToolFacts{{Name: "t", Via: "definition", Found: true, Kept: 5}, {Name: "u", Via: "definition", Found: true, Kept: 7}}}),
		ok("form@1", analyze.Result{Sent: 100, First: first(whole), Tools: reached, Surface: call(
			surface.Found{Part: "content[0]", Reached: false}, surface.Found{Part: "structuredContent", Reached: true, Full: true})}),
		ok("long@1", analyze.Result{Sent: 100, First: first(whole), Tools: reached, Surface: call(
			surface.Found{Part: "content[0]", Reached: true, Kept: 2000})}),
		ok("same@1", analyze.Result{Sent: 100, First: first(whole), Tools: reached, Surface: call(
			surface.Found{Part: "content[0]", Reached: false, SameAs: "structuredContent"}, surface.Found{Part: "structuredContent", Reached: true, Full: true})}),
		ok("race@1", analyze.Result{Sent: 100, First: first(whole), Tools: reached}),
		ok("race@1", analyze.Result{Sent: 100, First: first(), Tools: reached}),
		ok("never@1", analyze.Result{First: first(), Timing: analyze.Timing{ServerStart: at(0), FirstRequest: at(1800)}}),
		ok("after@1", analyze.Result{First: first(), Tools: []analyze.ToolFacts{{Name: "t"}}, Timing: analyze.Timing{ServerStart: at(0), ServerReady: at(4600), FirstRequest: at(1000)}}),
		{Client: "failed@1", Row: "srv", Server: "srv", Status: "failed", Reason: "client exited 1", Arm: analyze.ArmFacts{Name: "default", Default: true}},
		{Client: "a@1", Row: "en-1000", Status: analyze.StatusOK, Sent: 1000}, // the lab's
	}
	var got []string
	for _, v := range Verdicts(results) {
		got = append(got, v.Client+" "+string(v.Verdict)+": "+v.Decides())
	}
	want := []string{
		"a@1 works: ",
		"none@1 broken: gets none of the instructions",
		"cut@1 degraded: keeps 40 of 100 characters of instructions",
		"late@1 degraded: gets the instructions only from request 2",
		"lost@1 broken: nothing of the server reached a request",
		"hidden@1 broken: tool write_file: never reached the first request",
		"desc@1 degraded: 2 tools: description cut",
		"form@1 degraded: tool get: no content text",
		"long@1 degraded: tool get: content[0] cut at 2,000 characters",
		"same@1 works: ",
		"race@1 broken: gets none of the instructions; in 1 of 2 runs",
		// A late server reads the same way whatever the client did with
		// it: when it answered, and when the first request went.
		"never@1 broken: drops the server: its first request went 1.8 s after the server's start, which had not answered then and never did before the session ended",
		"after@1 broken: drops the server: the server answered 4.6 s after its start, 3.6 s after the client's first request went without it",
		"failed@1 not measured: no run finished: client exited 1",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("verdicts mismatch (-want +got):\n%s", diff)
	}
	if v := Verdicts(results)[0]; v.Verdict != loss.Works || v.Runs != 1 || v.Of != 1 {
		t.Errorf("a@1: %+v", v)
	}
}
