package analyze

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/instrlab/instrlab/internal/client"
	"github.com/instrlab/instrlab/internal/matrix"
	"github.com/instrlab/instrlab/lab"
)

// timingLog is a lab log: the process started at 0, the client asked at
// asked and the reply left at ready (zero: never), on a clock of t0.
func timingLog(t0 time.Time, asked, ready time.Duration, withStart bool) []LabMessage {
	var msgs []LabMessage
	if withStart {
		msgs = append(msgs, LabMessage{Time: t0, Dir: lab.ServerDir, Kind: lab.KindStart})
	}
	msgs = append(msgs, LabMessage{Time: t0.Add(asked), Dir: lab.Recv, Kind: lab.KindRequest, Method: "initialize"})
	if ready > 0 {
		msgs = append(msgs, LabMessage{Time: t0.Add(ready), Dir: lab.Send, Kind: lab.KindResponse, Method: "initialize"})
	}
	return msgs
}

func TestTimingJudge(t *testing.T) {
	t0 := time.Date(2026, 12, 1, 2, 34, 0, 0, time.UTC)
	text := []Placement{{Kept: 1000, Full: true}}
	for _, tc := range []struct {
		name         string
		hold         time.Duration
		asked, ready time.Duration // from the server's start
		first        time.Duration // the first request, from the server's start; 0: none
		noStart      bool
		status       string
		used         bool // the text in the first request
		budget       *WaitBound
		want         string // "" when not sensitive, else a phrase of Why
	}{
		{name: "ready well before, used", asked: 30 * time.Millisecond, ready: 40 * time.Millisecond, first: 2 * time.Second, status: "connected", used: true},
		{name: "ready after the request, no hold", asked: 900 * time.Millisecond, ready: 2500 * time.Millisecond, first: 2 * time.Second, status: "pending", want: "with no hold: its start-up raced the client"},
		{name: "ready before, client says pending", asked: 100 * time.Millisecond, ready: 200 * time.Millisecond, first: 2 * time.Second, status: "pending", want: "the client's own start-up lost the race"},
		{name: "pending but the text arrived", asked: 100 * time.Millisecond, ready: 200 * time.Millisecond, first: 2 * time.Second, status: "pending", used: true},
		{name: "held past the request, quick start", hold: 3 * time.Second, asked: 40 * time.Millisecond, ready: 3050 * time.Millisecond, first: 2 * time.Second, status: "pending"},
		{name: "held past the request, slow start", hold: 3 * time.Second, asked: 1500 * time.Millisecond, ready: 4510 * time.Millisecond, first: 2 * time.Second, status: "pending", want: "its own start-up took 1.5 s besides"},
		{name: "held, no start entry", hold: 3 * time.Second, asked: 40 * time.Millisecond, ready: 3050 * time.Millisecond, first: 2 * time.Second, noStart: true, status: "pending", want: "no start entry"},
		{name: "held, never answered in the session", hold: 60 * time.Second, asked: 40 * time.Millisecond, first: 2 * time.Second, status: "pending"},
		{name: "no hold, never answered", asked: 40 * time.Millisecond, first: 2 * time.Second, status: "failed"},
		{name: "no request", asked: 40 * time.Millisecond, ready: 50 * time.Millisecond},
		{name: "budget known, far from it", asked: 1500 * time.Millisecond, ready: 1510 * time.Millisecond, first: 2 * time.Second, status: "connected", used: true, budget: &WaitBound{Lo: 8 * time.Second, Hi: 8800 * time.Millisecond}},
		{name: "budget known, within its resolution", asked: 1900 * time.Millisecond, ready: 1910 * time.Millisecond, first: 2 * time.Second, status: "connected", used: true, budget: &WaitBound{Lo: 1800 * time.Millisecond, Hi: 2 * time.Second}, want: "within the client's wait budget (1.8 s–2.0 s)"},
		{name: "budget known, held past it", hold: 3 * time.Second, asked: 500 * time.Millisecond, ready: 3510 * time.Millisecond, first: 2 * time.Second, status: "pending", budget: &WaitBound{Lo: 1800 * time.Millisecond, Hi: 2 * time.Second}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := Record{Row: matrix.Row{Name: "r", Args: lab.Args{InitDelay: tc.hold}}}
			res := &Result{Observation: observation(tc.status)}
			if tc.first > 0 {
				res.First = &RequestFacts{Time: t0.Add(tc.first)}
				if tc.used {
					res.First.Placements = text
				}
			}
			msgs := timingLog(t0, tc.asked, tc.ready, !tc.noStart)
			res.Handshake = handshake(msgs)
			tm := timing(rec, msgs, res)
			sensitive, why := tm.Sensitive, tm.Why
			if tc.budget != nil {
				sensitive, why = tm.Against(*tc.budget, tc.status)
			}
			if sensitive != (tc.want != "") || !strings.Contains(why, tc.want) {
				t.Errorf("sensitive = %v (%q), want %v (%q)", sensitive, why, tc.want != "", tc.want)
			}
		})
	}
}

func TestTimingFacts(t *testing.T) {
	t0 := time.Date(2026, 12, 1, 2, 34, 0, 0, time.UTC)
	// A client that starts its server twice: the second start counts.
	msgs := []LabMessage{
		{Time: t0, Dir: lab.ServerDir, Kind: lab.KindStart},
		{Time: t0.Add(3 * time.Second), Dir: lab.ServerDir, Kind: lab.KindStart},
		{Time: t0.Add(3100 * time.Millisecond), Dir: lab.Recv, Kind: lab.KindRequest, Method: "initialize"},
		{Time: t0.Add(3300 * time.Millisecond), Dir: lab.Send, Kind: lab.KindResponse, Method: "initialize"},
		{Time: t0.Add(9 * time.Second), Dir: lab.ServerDir, Kind: lab.KindStart}, // after ready: not this session's
	}
	res := &Result{First: &RequestFacts{Time: t0.Add(4 * time.Second)}, Handshake: handshake(msgs)}
	tm := timing(Record{Row: matrix.Row{Args: lab.Args{InitDelay: 100 * time.Millisecond}}}, msgs, res)
	start, ready, first := t0.Add(3*time.Second), t0.Add(3300*time.Millisecond), t0.Add(4*time.Second)
	want := Timing{ServerStart: &start, ServerReady: &ready, FirstRequest: &first, HeldMS: 100, StartupMS: ptr(200.0), LeadMS: ptr(700.0)}
	if d := cmp.Diff(want, tm); d != "" {
		t.Errorf("timing mismatch (-want +got):\n%s", d)
	}
}

func ptr[T any](v T) *T { return &v }

func observation(status string) client.Observation { return client.Observation{ServerStatus: status} }
