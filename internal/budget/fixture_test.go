package budget

import (
	"math"
	"path/filepath"
	"testing"

	"github.com/instrlab/instrlab/internal/client/clients"
	"github.com/instrlab/instrlab/internal/matrix/analyze"
)

// TestContinueGaveUp: the real run of Continue CLI 1.5.47 with its server
// held 60 s (2026-12-03): the client cancelled its initialize at 60.0 s,
// the held server answered the cancelled request a moment later, the
// client started the server again, cancelled again and exited with "MCP
// error -32001: Request timed out" before any model request. That is the
// client past its budget, not a failed run, and its cancel tells the
// budget (Hint, 60.0 s from the server's start); the replies to cancelled
// initializes make no server ready.
func TestContinueGaveUp(t *testing.T) {
	r, err := analyze.Run("testdata/continue-gave-up-60s", clients.New)
	if err != nil {
		t.Fatal(err)
	}
	if r.Timing.ServerReady != nil {
		t.Errorf("server ready at %v: a reply to a cancelled initialize counted", r.Timing.ServerReady)
	}
	o := waitOutcome(60, r)
	if o.Failed != "" || o.Within {
		t.Fatalf("outcome %+v, want past the budget, not failed", o)
	}
	if math.Abs(o.Hint-60.0) > 0.1 {
		t.Errorf("hint %.3f s, want the cancel at 60.0 s from the server's start", o.Hint)
	}
}

// TestLateServerRealRuns: real runs of docs/examples/late-server.matrix.json
// (2026-12-03, the server held a fixed time past each client's wait
// budget, the model's shell tool waiting after the first request), kept
// without the clients' own files. Codex CLI 0.171.0 (held 5 s) takes the
// server up when it is ready and has its text and tools in the request
// after it; Cline 3.0.65 (held 4 s) starts it again with another framing
// and never has it ready; Droid 0.225.2 (held 5 s) completes the
// handshake and lists its tools, yet names none of them in the request 65
// s later. Codex's log (its stderr, kept to its catalog line) has the
// server's catalog by the second request: it sent the first without the
// server, and did not drop it.
func TestLateServerRealRuns(t *testing.T) {
	noStatus := PastSends + " (it reports no status for it)"
	for _, tt := range []struct{ dir, past, want string }{
		{"late-codex-5s", PastSends + " and takes it up when it is ready (status connected (3 tools) by the run's end)",
			"instructions from request 2, tools from request 2 (2 requests, 1 of them after the server was ready)"},
		{"late-cline-4s", noStatus,
			"instructions and tools lost for the session: the client gave up on the server before it was ready (2 requests, 2 of them after its hold ended, none with it)"},
		{"late-droid-5s", noStatus,
			"instructions lost for the session, tools lost for the session (2 requests, 1 of them after the server was ready)"},
	} {
		t.Run(tt.dir, func(t *testing.T) {
			r, err := analyze.Run(filepath.Join("testdata", tt.dir), clients.New)
			if err != nil {
				t.Fatal(err)
			}
			if r.Status != analyze.StatusOK {
				t.Fatalf("status %s (%s), want ok", r.Status, r.Reason)
			}
			if o := waitOutcome(r.Timing.HeldMS/1000, r); o.Within || o.Failed != "" {
				t.Fatalf("outcome %+v, want past the budget", o)
			}
			if got := pastBudget(Found{}, []analyze.Result{r}); got != tt.past {
				t.Errorf("pastBudget = %q, want %q", got, tt.past)
			}
			if got := lateServer([]analyze.Result{r}); got != tt.want {
				t.Errorf("lateServer = %q, want %q", got, tt.want)
			}
		})
	}
}

// TestPastBudgetNamesTheHolds: Codex CLI 0.171.0 takes up a server held 5
// s (past its 1 s budget) and drops one held 60 s when its own start-up
// timeout (30 s, said in its log) ends the handshake. Two behaviours past
// one budget are each told with the holds they were seen at, not as one
// contradictory sentence.
func TestPastBudgetNamesTheHolds(t *testing.T) {
	var rs []analyze.Result
	for _, dir := range []string{"late-codex-5s", "late-codex-60s"} {
		r, err := analyze.Run(filepath.Join("testdata", dir), clients.New)
		if err != nil {
			t.Fatal(err)
		}
		rs = append(rs, r)
	}
	want := PastSends + " and takes it up when it is ready (status connected (3 tools) by the run's end; held 5.0 s); " +
		PastDrops + " (status start-up timed out after 30.0 s; held 60.0 s)"
	if got := pastBudget(Found{}, rs); got != want {
		t.Errorf("pastBudget =\n%q, want\n%q", got, want)
	}
	if got := pastBudget(Found{}, rs[1:]); got != PastDrops+" (status start-up timed out after 30.0 s)" {
		t.Errorf("pastBudget of the 60 s run alone = %q", got)
	}
}
