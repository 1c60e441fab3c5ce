package analyze

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/instrlab/instrlab/internal/evidence"
	"github.com/instrlab/instrlab/internal/labvocab"
	"github.com/instrlab/instrlab/lab"
)

// Timing is when a run's server became ready against when the client sent
// its first model request, and whether the run's result depends on that
// order: a result that a faster or slower server start-up would have
// changed is a race the run happened to win or lose, not something the
// client does, and is marked Sensitive with the reason.
type Timing struct {
	// ServerStart is when the process serving the client started (the
	// lab's or the proxy's start entry, lab.KindStart); nil in evidence
	// older than that entry.
	ServerStart *time.Time `json:"server_start,omitempty"`
	// ServerReady is when the server sent the reply that completed the
	// handshake (Handshake.Ready); nil when it never did.
	ServerReady *time.Time `json:"server_ready,omitempty"`
	// FirstRequest is when the client sent its first main model request
	// (the fake API's record); nil when it sent none.
	FirstRequest *time.Time `json:"first_request,omitempty"`
	// HeldMS is how long the row held the server's reply on purpose.
	HeldMS float64 `json:"held_ms,omitempty"`
	// StartupMS is what the server's own start-up added to the hold: from
	// its process start to the handshake's reply, less the hold (to the
	// client's first handshake message when no reply came); nil when
	// ServerStart is unknown. StartupMS + HeldMS is the delay the client
	// met from starting the server.
	StartupMS *float64 `json:"startup_ms,omitempty"`
	// LeadMS is how long before the first request the server became
	// ready, negative when after it; nil when either is missing.
	LeadMS *float64 `json:"lead_ms,omitempty"`
	// HadServer says whether the first request shows the server: its
	// text or one of its tools, or the client's own status "connected".
	HadServer bool `json:"had_server"`
	// Load is the machine's load around the client process.
	Load *RunLoad `json:"load,omitempty"`
	// Sensitive is set when the result depends on the order of the
	// server's readiness and the first request; Why says how.
	Sensitive bool   `json:"sensitive,omitempty"`
	Why       string `json:"why,omitempty"`
}

// A WaitBound brackets a client's wait budget: a server ready Lo after
// its start was waited for, one ready Hi after it was not. Hi - Lo is the
// budget's resolution.
type WaitBound struct {
	Lo, Hi time.Duration
}

func (b WaitBound) String() string {
	return fmt.Sprintf("%s–%s", Seconds(b.Lo), Seconds(b.Hi))
}

// minResolution is the finest resolution a wait budget is measured to:
// a hold's own tolerance is 10% of it or this, whichever is larger.
const minResolution = 100 * time.Millisecond

// notConnected are the statuses in which clients report a server that had
// not finished connecting when they started their turn.
var notConnected = []string{"pending", "connecting", "starting"}

// timing reads a run's Timing from its evidence: the lab's log, the first
// main request and the client's status for the server.
func timing(rec Record, msgs []LabMessage, res *Result) Timing {
	t := Timing{HeldMS: float64(rec.Row.Held().Microseconds()) / 1000, Load: rec.Load}
	ready := res.Handshake.Ready
	var firstAsked time.Time
	for _, m := range msgs {
		if m.Dir == lab.Recv && m.Method != "" && firstAsked.IsZero() {
			firstAsked = m.Time
		}
	}
	// The start that counts is the last before the server was ready (or
	// asked): a client that starts its server twice connects the second.
	until := ready
	if until.IsZero() {
		until = firstAsked
	}
	for _, m := range msgs {
		if m.Dir == lab.ServerDir && m.Kind == lab.KindStart && (until.IsZero() || !m.Time.After(until)) {
			s := m.Time
			t.ServerStart = &s
		}
	}
	if !ready.IsZero() {
		t.ServerReady = &ready
	}
	if res.First != nil && !res.First.Time.IsZero() {
		q := res.First.Time
		t.FirstRequest = &q
	}
	if t.ServerStart != nil && !until.IsZero() {
		// What the server's own start added to the hold: from its start
		// to its reply, less the hold; with no reply, to the client's
		// first message (less a hold counted from the start, ready_after).
		d := until.Sub(*t.ServerStart)
		switch ra := rec.Row.ReadyAfter; {
		case !ready.IsZero():
			d -= rec.Row.Held()
		case ra > 0:
			d -= ra
		}
		t.StartupMS = msp(max(d, 0))
	}
	if t.ServerReady != nil && t.FirstRequest != nil {
		t.LeadMS = msp(t.FirstRequest.Sub(*t.ServerReady))
	}
	t.HadServer = hadServer(res)
	t.Sensitive, t.Why = t.judge(res.Observation.ServerStatus, nil)
	return t
}

// hadServer reports whether the first main request shows the server: its
// text, a tool of its (the lab's, or the user's server's as located), or
// the client's own word that it was connected.
func hadServer(res *Result) bool {
	if res.First == nil {
		return false
	}
	if res.First.Best() != nil || res.Observation.ServerStatus == "connected" {
		return true
	}
	if res.First.ShowsLabTool() {
		return true
	}
	for _, tf := range res.Tools {
		if tf.Via != "" {
			return true
		}
	}
	return false
}

// ShowsLabTool reports whether the request has one of the lab's tools:
// offered by name, or named in a text (NamesLabTool).
func (q *RequestFacts) ShowsLabTool() bool {
	return q.OffersLabTool() || q.NamesLabTool
}

// OffersLabTool reports whether the request offers one of the lab's tools
// by name (a client prefixes them, as mcp__lab__lookup_part).
func (q *RequestFacts) OffersLabTool() bool {
	for _, name := range q.Tools {
		for _, own := range labvocab.OwnTools {
			if strings.HasSuffix(name, own) {
				return true
			}
		}
	}
	return false
}

// Against judges t again with the client's wait budget known: a server
// whose start-up (and hold) falls within the budget's resolution raced
// the client's deadline, and one well on either side of it did not,
// however slowly it started. status is the client's status for the server.
func (t Timing) Against(b WaitBound, status string) (bool, string) {
	return t.judge(status, &b)
}

// judge says whether the result depends on the order of the server's
// readiness and the first request, and why; b is the client's wait budget
// when known.
func (t Timing) judge(status string, b *WaitBound) (bool, string) {
	held := time.Duration(t.HeldMS * float64(time.Millisecond))
	startup := durp(t.StartupMS)
	// The delay the client saw: from the server's start to its ready.
	delay, delayKnown := time.Duration(0), t.StartupMS != nil
	if delayKnown {
		delay = *startup + held
	}
	lost := slices.Contains(notConnected, status)
	switch {
	case t.FirstRequest == nil:
		return false, "" // no request: nothing was decided
	case t.ServerReady == nil && held == 0 && !lost:
		return false, "" // the server failed or never answered: not a race
	case b != nil && delayKnown:
		res := b.Hi - b.Lo
		if delay >= b.Lo-res && delay <= b.Hi+res {
			return true, fmt.Sprintf("the server was ready %s after its start, within the client's wait budget (%s) and its resolution", Seconds(delay), b)
		}
		if lost && t.ServerReady != nil && !t.ServerReady.After(*t.FirstRequest) && delay < b.Lo {
			return true, fmt.Sprintf("the client reported the server %s, though it was ready %s before the first model request and %s after its start, inside the client's wait budget (%s): the client's own start-up lost the race", status, Seconds(*durp(t.LeadMS)), Seconds(delay), b)
		}
		return false, ""
	}
	notReady := t.ServerReady == nil || t.ServerReady.After(*t.FirstRequest)
	var when string
	switch {
	case t.ServerReady == nil:
		when = "was not ready during the session"
	case notReady:
		when = fmt.Sprintf("became ready %s after the first model request", Seconds(-*durp(t.LeadMS)))
	case lost && !t.HadServer:
		// Ready in the server's log, not yet in the client's eyes.
		when = fmt.Sprintf("was reported %s by the client, though ready %s before the first model request", status, Seconds(*durp(t.LeadMS)))
	default:
		return false, "" // the client had the server by its first request
	}
	switch {
	case held == 0 && notReady:
		return true, "the server " + when + ", with no hold: its start-up raced the client"
	case held == 0:
		return true, "the server " + when + ": the client's own start-up lost the race"
	case startup == nil:
		return true, "the server, held " + held.String() + ", " + when + ", and its own start-up is not in the evidence (no start entry): a faster start might have been waited for"
	case *startup > tolerance(held):
		return true, fmt.Sprintf("the server, held %s, %s, and its own start-up took %s besides: a faster start might have been waited for", held, when, Seconds(*startup))
	}
	return false, ""
}

// tolerance is how far a server's own start-up may add to a hold before
// the hold alone no longer decides: 10% of it or 100 ms, whichever is
// larger (a wait budget's resolution).
func tolerance(held time.Duration) time.Duration {
	return max(held/10, minResolution)
}

func msp(d time.Duration) *float64 {
	v := float64(d.Microseconds()) / 1000
	return &v
}

func durp(ms *float64) *time.Duration {
	if ms == nil {
		return nil
	}
	d := time.Duration(*ms * float64(time.Millisecond))
	return &d
}

// Seconds writes a duration in seconds to a tenth, or in milliseconds below
// one second, as "1.5 s" or "80 ms".
func Seconds(d time.Duration) string {
	if d < time.Second && d > -time.Second {
		return fmt.Sprintf("%d ms", d.Milliseconds())
	}
	return fmt.Sprintf("%.1f s", d.Seconds())
}

// ReadResult reads the result a run's analysis wrote (result.json). A
// result written before runs were timed gets its Timing from the run's
// record and the lab's log, which is all it needs, so that the evidence of
// an older sweep (which kept run.json, result.json and lab.jsonl alone) is
// judged as a new run is.
func ReadResult(dir string) (Result, error) {
	var res Result
	path := evidence.RunDir(dir).Result()
	b, err := readFile(path)
	if err != nil {
		return res, fmt.Errorf("reading run result: %w", err)
	}
	if err := json.Unmarshal(b, &res); err != nil {
		return res, fmt.Errorf("%s: %w", path, err)
	}
	if res.Timing.ServerReady != nil || res.Timing.FirstRequest != nil || res.Timing.Why != "" {
		return res, nil
	}
	rec, err := ReadRecord(dir)
	if err != nil {
		return res, err
	}
	msgs, warns, err := ReadLabLog(evidence.RunDir(dir).LabLog())
	if err != nil {
		return res, err
	}
	res.Warnings = append(res.Warnings, warns...)
	res.Timing = timing(rec, msgs, &res)
	return res, nil
}
