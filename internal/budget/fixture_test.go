package budget

import (
	"math"
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
