package budget

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/instrlab/instrlab/internal/client/clients"
	"github.com/instrlab/instrlab/internal/labvocab"
	"github.com/instrlab/instrlab/internal/matrix/analyze"
	"github.com/instrlab/instrlab/internal/surface"
	"github.com/instrlab/instrlab/lab"
)

// TestCallOutcome: a run of the call budget is past when the client gave
// up on the call (with when, as the hint), within when the server's
// result reached the model whole, and tells nothing otherwise, saying
// why.
func TestCallOutcome(t *testing.T) {
	ms := func(v float64) *float64 { return &v }
	run := func(status string, c *surface.CallFacts) analyze.Result {
		r := analyze.Result{Status: status, Reason: "timed out after 3m0s", Surface: &analyze.SurfaceFacts{}}
		if c != nil {
			c.Tool = lab.HangTool
			r.Surface.Calls = []surface.CallFacts{*c}
		} else {
			r.Surface.NotCalled = []surface.Missed{{Tool: lab.HangTool, Why: surface.MissedNotOffered}}
		}
		return r
	}
	whole := []surface.Found{{Full: true}}
	for _, tc := range []struct {
		name   string
		r      analyze.Result
		within bool
		hint   float64
		failed string // a substring of why the run tells nothing; "" for none
	}{
		{"answered in time", run("ok", &surface.CallFacts{Reached: true, Answer: surface.AnswerResult, Following: 3, Parts: whole}), true, 0, ""},
		{"cancelled", run("ok", &surface.CallFacts{Reached: true, Answer: surface.AnswerError, Following: 3,
			GaveUp: &surface.GaveUp{CancelMS: ms(60003), ResultMS: ms(60010)}}), false, 60.003, ""},
		{"gave up, then the run failed", run("failed", &surface.CallFacts{Reached: true, Answer: surface.AnswerNone, GaveUp: &surface.GaveUp{CancelMS: ms(30000)}}), false, 30, ""},
		{"run failed", run("failed", &surface.CallFacts{Reached: true, Answer: surface.AnswerNone}), false, 0, "timed out"},
		{"never called", run("ok", nil), false, 0, "never offered it"},
		{"never reached", run("ok", &surface.CallFacts{Instead: "denied"}), false, 0, `never reached the server (the model got "denied")`},
		{"no request after", run("ok", &surface.CallFacts{Reached: true, Answer: surface.AnswerResult}), false, 0, "no request after the call"},
		{"result lost", run("ok", &surface.CallFacts{Reached: true, Answer: surface.AnswerResult, Following: 3, Parts: []surface.Found{{}}, Instead: "x"}), false, 0, "a loss of the result"},
	} {
		o := callOutcome(10, tc.r)
		switch {
		case tc.failed != "" && !strings.Contains(o.Failed, tc.failed):
			t.Errorf("%s: failed %q, want it to say %q", tc.name, o.Failed, tc.failed)
		case tc.failed == "" && o.Failed != "":
			t.Errorf("%s: failed %q, want a side", tc.name, o.Failed)
		case tc.failed == "" && (o.Within != tc.within || o.Hint != tc.hint):
			t.Errorf("%s: within %v, hint %v; want %v, %v", tc.name, o.Within, o.Hint, tc.within, tc.hint)
		}
	}
	past := []analyze.Result{
		run("ok", &surface.CallFacts{Reached: true, Answer: surface.AnswerError, Following: 3, Instead: "MCP error -32001: Request timed out",
			GaveUp: &surface.GaveUp{CancelMS: ms(60003), Reason: "Error: timed out", ResultMS: ms(60010)}}),
	}
	want := `gives up 60.0 s after the server got the call, cancels it (notifications/cancelled, "Error: timed out"); the model gets "MCP error -32001: Request timed out"`
	if got := callPast(Found{}, past); got != want {
		t.Errorf("past:\n%s\nwant\n%s", got, want)
	}
	quiet := run("ok", &surface.CallFacts{Reached: true, Answer: surface.AnswerNone, GaveUp: &surface.GaveUp{ResultMS: ms(600000)}})
	if got := callPast(Found{}, []analyze.Result{quiet}); got != "gives up 600.0 s after the server got the call, sends no notifications/cancelled; the model gets no result for it" {
		t.Errorf("past without a cancel: %s", got)
	}
	if got := callPast(Found{}, nil); got != "not measured" {
		t.Errorf("no run past: %q", got)
	}
}

// TestCallSearch: four runs bracket a client that says when it gave
// up: the ends, then a quarter of a second either side of it.
func TestCallSearch(t *testing.T) {
	var set []float64
	f := Bisect(t.Context(), CallSearch(), func(_ context.Context, v float64) Outcome {
		set = append(set, v)
		o := Outcome{Value: v, Within: v < 60}
		if !o.Within {
			o.Hint = 60.004
		}
		return o
	})
	if len(set) != 4 || f.Within >= 60 || f.Past < 60 || f.Past-f.Within > 1 {
		t.Errorf("runs at %v found %+v: want 4 runs bracketing 60 s to a second", set, f)
	}
}

// TestCallRealRuns: the real runs of LangChain.js 1.1.4 at the edge of
// its call budget (instrlab budget -budget call, 2026-12-07), kept
// without the client's own files: a tool that answered 59.8 s after the
// server got the call reached the model; at 60.3 s the client had
// cancelled the call at 60.0 s, its reason the TypeScript SDK's timeout,
// and the model got the framework's error instead. Without the cancel in
// the log (evidence from before the log kept one), the run is still
// past: the request with the client's own result came first.
func TestCallRealRuns(t *testing.T) {
	within, past := readRun(t, "call-langchain-59.8"), readRun(t, "call-langchain-60.3")
	if o := callOutcome(59.77, within); o.Failed != "" || !o.Within {
		t.Errorf("59.8 s: %+v, want within", o)
	}
	o := callOutcome(60.27, past)
	if o.Failed != "" || o.Within || o.Hint < 59.9 || o.Hint > 60.2 {
		t.Fatalf("60.3 s: %+v, want past, hinting about 60 s", o)
	}
	got := callPast(Found{}, []analyze.Result{past})
	want := `gives up 60.0 s after the server got the call, cancels it (notifications/cancelled, "McpError: MCP error -32001: Request timed out"); the model gets "ToolException: Error calling tool bad_hang: McpError: MCP error -32001: Request timed out\n Please fix your mistakes."`
	if got != want {
		t.Errorf("past =\n%s\nwant\n%s", got, want)
	}
	c, _ := calledHang(past)
	if c.GaveUp == nil || c.GaveUp.ResultMS == nil || c.GaveUp.AnswerMS == nil || *c.GaveUp.ResultMS < *c.GaveUp.CancelMS {
		t.Errorf("gave up: %+v, want the cancel, then the server's late answer and the request with the client's result", c.GaveUp)
	}
	if c, _ := calledHang(within); c.GaveUp != nil {
		t.Errorf("a call answered in time gave up: %+v", c.GaveUp)
	}

	// The cancel and the server's late answer taken out of the log (a
	// client that gives up without a cancel, its server still at work):
	// past still, by the request that carried the client's own result,
	// and no cancel said.
	dir := t.TempDir()
	for _, f := range []string{"run.json", "api/requests.jsonl", "lab.jsonl"} {
		b, err := os.ReadFile(filepath.Join("testdata", "call-langchain-60.3", f))
		if err != nil {
			t.Fatal(err)
		}
		if f == "lab.jsonl" {
			var kept []string
			for _, line := range strings.SplitAfter(string(b), "\n") {
				late := strings.Contains(line, `"dir":"send"`) && strings.Contains(line, `"method":"tools/call"`)
				if !strings.Contains(line, labvocab.Cancelled) && !late {
					kept = append(kept, line)
				}
			}
			b = []byte(strings.Join(kept, ""))
		}
		os.MkdirAll(filepath.Dir(filepath.Join(dir, f)), 0o755)
		if err := os.WriteFile(filepath.Join(dir, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	uncancelled, err := analyze.Run(dir, clients.New)
	if err != nil {
		t.Fatal(err)
	}
	if o := callOutcome(60.27, uncancelled); o.Failed != "" || o.Within || o.Hint < 59.9 || o.Hint > 60.2 {
		t.Errorf("without the cancel: %+v, want past, hinting about 60 s", o)
	}
	if got := callPast(Found{}, []analyze.Result{uncancelled}); !strings.Contains(got, "sends no notifications/cancelled") {
		t.Errorf("without the cancel: %s", got)
	}
}

// readRun is the analysis of the run kept in testdata/dir.
func readRun(t *testing.T, dir string) analyze.Result {
	t.Helper()
	r, err := analyze.Run(filepath.Join("testdata", dir), clients.New)
	if err != nil {
		t.Fatal(err)
	}
	return r
}
