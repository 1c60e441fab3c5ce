package budget

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/instrlab/instrlab/internal/matrix"
	"github.com/instrlab/instrlab/internal/matrix/analyze"
	"github.com/instrlab/instrlab/internal/surface"
	"github.com/instrlab/instrlab/lab"
)

// TestResultRealRuns: the real runs of Cline CLI 3.0.65 at the edge of
// its result budget (instrlab budget -budget result, 2026-12-04), kept
// without the client's own files: a result of 7,961 characters reached
// the model whole, one of 7,962 cut in the middle, its first 3,950
// characters then Cline's marker. The past run says so with the marker,
// and what the tool result in the request began with.
func TestResultRealRuns(t *testing.T) {
	within, past := readRun(t, "result-cline-7961"), readRun(t, "result-cline-7962")
	if o := resultOutcome(7961, within); o.Failed != "" || !o.Within {
		t.Errorf("7,961 characters: %+v, want within", o)
	}
	o := resultOutcome(7962, past)
	if o.Failed != "" || o.Within {
		t.Fatalf("7,962 characters: %+v, want past", o)
	}
	got := resultPast(Found{Within: 7961, Past: 7962}, []analyze.Result{past})
	want := `cuts it: the model gets its first 3,950 characters, then "\n\n...[truncated 31 chars]...\n\nelf, from " (at 7,962 characters)`
	if got != want {
		t.Errorf("past =\n%s\nwant\n%s", got, want)
	}
	c, _ := calledResult(past)
	if c.ResultChars == 0 || !strings.HasPrefix(c.Instead, `{"content":[{"type":"text","text":"BEGIN`) {
		t.Errorf("what the model got instead: %d characters, beginning %q; want Cline's JSON of the result", c.ResultChars, c.Instead)
	}
	// A path into the run's directory is written as RUN.
	saved := past
	saved.Surface = &analyze.SurfaceFacts{Calls: []surface.CallFacts{c}}
	abs, _ := filepath.Abs(saved.Dir)
	saved.Surface.Calls[0].Instead = "Output too large. Saved to: " + abs + "/tmp/out.txt"
	saved.Surface.Calls[0].Parts = []surface.Found{c.Parts[0]}
	saved.Surface.Calls[0].Parts[0].Suffix = "" // Copilot CLI's preview ends its result
	if got := resultPast(Found{}, []analyze.Result{saved}); !strings.Contains(got, `begins "Output too large. Saved to: RUN/tmp/out.txt"`) {
		t.Errorf("a saved file's path: %s", got)
	}
	if c, _ := calledResult(within); c.Instead != "" {
		t.Errorf("a result given whole has an instead: %q", c.Instead)
	}
}

// TestResultOutcome: a run tells the result budget only through the
// call it made. A client that did not call, a call that never reached
// the server, or a failed run with no request after the call tells
// nothing; requests after the call without its result are past the
// budget (Continue CLI, its context overflowed, summarizing without it),
// even when the run then timed out.
func TestResultOutcome(t *testing.T) {
	parts := []surface.Found{{Part: "content[0] text", Reached: true, Full: true, Kept: 1000, Sent: 1000}}
	called := func(c surface.CallFacts, status string, reqs ...int) analyze.Result {
		r := analyze.Result{Status: status, Reason: "timed out after 1m30s", Surface: &analyze.SurfaceFacts{Calls: []surface.CallFacts{c}}}
		for _, q := range reqs {
			r.Requests = append(r.Requests, analyze.RequestFacts{Seq: q})
		}
		return r
	}
	answered := surface.CallFacts{Tool: resultTool, Request: 1, Reached: true, Answer: surface.AnswerResult}
	withResult := answered
	withResult.Following, withResult.Parts = 2, parts
	lied := withResult // a lab that says 1,000 and sends 10, kept whole
	lied.Parts = []surface.Found{{Part: "content[0] text", Reached: true, Full: true, Kept: 10, Sent: 10}}
	for _, tt := range []struct {
		name           string
		r              analyze.Result
		within, failed bool
	}{
		{"whole", called(withResult, analyze.StatusOK, 1, 2), true, false},
		{"whole in a run that then timed out", called(withResult, "failed", 1, 2), true, false},
		{"requests after the call, none with its result", called(answered, "failed", 1, 2, 3), false, false},
		{"no request after the call", called(answered, "failed", 1), false, true},
		{"not reached", called(surface.CallFacts{Tool: resultTool, Request: 1}, analyze.StatusOK, 1, 2), false, true},
		{"not called", analyze.Result{Status: analyze.StatusOK, Surface: &analyze.SurfaceFacts{NotCalled: []surface.Missed{{Tool: resultTool, Why: "the client never offered it"}}}}, false, true},
		{"failed run", analyze.Result{Status: "failed", Reason: "client exited 1"}, false, true},
		{"a server that sent another size", called(lied, analyze.StatusOK, 1, 2), false, true},
	} {
		o := resultOutcome(1000, tt.r)
		if (o.Failed != "") != tt.failed || o.Within != tt.within {
			t.Errorf("%s: %+v, want within %v, failed %v", tt.name, o, tt.within, tt.failed)
		}
	}
	if o := resultOutcome(1000, called(lied, analyze.StatusOK, 1, 2)); !strings.Contains(o.Failed, "was 10 characters, not the 1,000 characters asked") {
		t.Errorf("a lying server: %q, want the size it sent and the size asked", o.Failed)
	}
	if o := resultOutcome(1000, analyze.Result{Status: analyze.StatusOK, Surface: &analyze.SurfaceFacts{NotCalled: []surface.Missed{{Tool: resultTool, Why: "the client never offered it"}}}}); !strings.Contains(o.Failed, "never offered") {
		t.Errorf("not called says %q, want why", o.Failed)
	}
}

// TestResultVary: each run of the result budget serves the size group
// with a text of the value's length, and calls result_size alone, with
// the turns a client's loader of deferred tools needs before the call
// (Claude Code and Droid load it with ToolSearch first).
func TestResultVary(t *testing.T) {
	k, ok := kindOf(ResultSize)
	if !ok {
		t.Fatal("no result budget")
	}
	row := matrix.Row{Name: "en-1000", Args: lab.Args{Instr: "en:1000"}}
	k.vary(&row, 12345)
	if row.Surface != "size" || row.ResultSize != "ascii:12345" || len(row.Script) != 1 || len(row.Script[0].Calls) != 1 || row.Script[0].Calls[0].Tool != "result_size" || row.MaxTurns < 2 {
		t.Errorf("row = %+v", row)
	}
}
