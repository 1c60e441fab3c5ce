package analyze

import (
	"strings"
	"testing"
	"time"

	"github.com/instrlab/instrlab/lab"
)

// TestServerFailureOutsideSignal: a server killed by a signal from outside
// the proxy after the last model request is a client ending its session
// (Copilot CLI 1.0.102 does so), a warning; before it, or by its own
// crash, a failure.
func TestServerFailureOutsideSignal(t *testing.T) {
	t0 := time.Date(2026, 12, 1, 3, 33, 0, 0, time.UTC)
	log := func(exitAt time.Time, note string) []LabMessage {
		return []LabMessage{
			{Time: t0, Dir: lab.Recv, Kind: lab.KindRequest, Method: "initialize"},
			{Time: t0.Add(time.Second), Dir: lab.Send, Kind: lab.KindResponse, Method: "initialize"},
			{Time: exitAt, Dir: lab.ServerDir, Kind: lab.KindExit, Note: note},
		}
	}
	lastModel := t0.Add(5 * time.Second)
	for _, tc := range []struct {
		name          string
		exitAt        time.Time
		note          string
		fail, warning bool
	}{
		{"terminated after the last request", t0.Add(9 * time.Second), "the server ended: signal: terminated while the client was connected", false, true},
		{"killed after the last request", t0.Add(9 * time.Second), "the server ended: signal: killed while the client was connected", false, true},
		{"terminated before the last request", t0.Add(3 * time.Second), "the server ended: signal: terminated while the client was connected", true, false},
		{"its own crash after the last request", t0.Add(9 * time.Second), "the server ended: signal: segmentation fault while the client was connected", true, false},
		{"exit status after the last request", t0.Add(9 * time.Second), "the server ended: exit status 1 while the client was connected", true, false},
		{"ended after the client left", t0.Add(9 * time.Second), "the server ended: exit status 0 after the client closed its input", false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			why, warning := serverFailure(log(tc.exitAt, tc.note), lastModel)
			if (why != "") != tc.fail || (warning != "") != tc.warning {
				t.Errorf("reason %q, warning %q; want failure %v, warning %v", why, warning, tc.fail, tc.warning)
			}
			if tc.fail && !strings.Contains(why, tc.note) {
				t.Errorf("reason %q does not say how the server ended", why)
			}
		})
	}
	why, _ := serverFailure(log(t0, "")[:1], lastModel)
	if want := "server: the server never answered the handshake (the client asked 5.0 s before its last model request)"; why != want {
		t.Errorf("no answer: %q, want %q", why, want)
	}
}
