package budget

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/instrlab/instrlab/internal/matrix/analyze"
)

// The wait budget's range: a server held from 0 to 60 s.
const (
	waitMax   = 60.0
	waitFloor = 0.1 // seconds: the finest resolution
)

// WaitSearch is the wait budget's search: holds from 0 to 60 s, bisected
// to 10% of the budget or 100 ms, whichever is larger.
func WaitSearch() Search {
	return Search{Lo: 0, Hi: waitMax, Resolution: Relative(0.1, waitFloor), Next: Geometric(waitFloor)}
}

// waitOutcome reads one run of the wait budget: within when the first
// request shows the server (its text, a tool of its, or the client's word
// that it was connected), at the delay the client met (the server's own
// start-up and the hold, from its start: analyze.Timing). A client that
// cancelled its handshake tells its budget: the time of the cancel, from
// the server's start, is the run's Hint.
func waitOutcome(v float64, r analyze.Result) Outcome {
	o := Outcome{Value: v, At: v, Dir: r.Dir, Within: r.Timing.HadServer}
	switch {
	case gaveUpAndExited(v, r):
		// Past the budget: the client ended the run over its server.
	case r.Status != "ok":
		o.Failed = r.Reason
	case v == 0 && unseen(r.Timing):
		o.Failed = fmt.Sprintf("the server was ready %s before the first request, which shows none of it (no text, no tool, no status): "+
			"this client does not show this row's server in a first request, so its runs cannot tell whether it waited", seconds(*r.Timing.LeadMS/1000))
	}
	if s := r.Timing.StartupMS; s != nil {
		o.At = (*s + r.Timing.HeldMS) / 1000
	}
	if g, s := r.Handshake.GaveUp, r.Timing.ServerStart; !g.IsZero() && s != nil && !o.Within {
		o.Hint = g.Sub(*s).Seconds()
	}
	return o
}

// gaveUpAndExited says whether a failed run is the client giving up on a
// server held v seconds: it ended with an error before the server
// completed its handshake and before any model request. Continue CLI
// 1.5.47 does so ("MCP server(s) failed to load: lab: MCP error -32001:
// Request timed out") with a server held 60 s, and not with one ready at
// once. A client that cancelled its handshake gave up on the server even
// when the reply crossed the cancel (the server ready a moment before, at
// the edge of the budget). A failure with the server ready, or after a
// model request, or with no hold, is not about the wait and stays a
// failed run. A client that says so itself (its status of the server
// "failed", as a framework's host reports a connect that timed out) gave
// up on it even when the server answered before the process ended: the
// OpenAI Agents SDK 0.20.0 times out a connect at 5 s, then spends
// seconds flushing its traces before it exits.
func gaveUpAndExited(v float64, r analyze.Result) bool {
	t := r.Timing
	if r.Status == "ok" || v <= 0 || t.ServerStart == nil || t.FirstRequest != nil {
		return false
	}
	// A held server the client left may still answer into the closed
	// pipe as the run ends: ready only after the client's process had
	// ended (it started before the server did) is not ready for it.
	ended := t.ServerStart.Add(time.Duration(r.ClientMS * float64(time.Millisecond)))
	return t.ServerReady == nil || r.ClientMS > 0 && t.ServerReady.After(ended) || !r.Handshake.GaveUp.IsZero() ||
		r.Observation.ServerStatus == "failed"
}

// unseen says whether a run cannot tell the wait: the server was ready
// before the first request and the request still shows nothing of it.
// Only the run with no hold asks it: near the budget's edge a server ready
// a moment before a request the client had already begun is a race, not a
// missing signal. Such a run is of a client that shows nothing of the
// server in its first request at all (one that never puts the server's
// text in a request and defers its tools, as Droid 0.225.2 does). Taken
// for "did not wait", it made a budget of "under 43 ms" out of a signal
// that was never there.
func unseen(t analyze.Timing) bool {
	return !t.HadServer && t.LeadMS != nil && *t.LeadMS > 0
}

// Past-budget behaviours, in a user's words.
const (
	PastBlocks = "blocks the first request until the server is ready"
	PastSends  = "sends the first request without the server"
	PastDrops  = "drops the server"
	PastExits  = "exits with an error before any model request"
)

// pastBudget says what the client did with a server past its budget, from
// the runs past it: it sent without it and kept it pending, or dropped it
// (another status), or (Above) waited for it however long. Each behaviour
// names the holds it was seen at: one client may send without a server
// held a little past its budget and drop one held past its own start-up
// timeout (Codex CLI 0.171.0 takes a server held 1.1 s up, and drops one
// held 60 s at 30 s).
func pastBudget(f Found, past []analyze.Result) string {
	if f.Above {
		return fmt.Sprintf("%s (it waited %s)", PastBlocks, seconds(f.Within))
	}
	type seen struct{ what, detail string }
	var order []seen
	holds := map[seen][]string{}
	for _, r := range past {
		s := r.Observation.ServerStatus
		var k seen
		switch {
		case r.Status != "ok":
			k = seen{PastExits, firstLine(r.Reason)}
		case s == "":
			k = seen{PastSends, "it reports no status for it"}
		case slices.Contains([]string{"pending", "connecting", "starting"}, s):
			k = seen{PastSends, "status " + s}
		case strings.HasPrefix(s, "connected"):
			// The client's status as the run ended: it sent the first
			// request without the server and took the server up after
			// (Codex CLI 0.171.0, whose log has the catalog then).
			k = seen{PastSends + " and takes it up when it is ready", "status " + s + " by the run's end"}
		default:
			k = seen{PastDrops, "status " + s}
		}
		if _, ok := holds[k]; !ok {
			order = append(order, k)
		}
		if h := seconds(r.Timing.HeldMS / 1000); r.Timing.HeldMS > 0 && !slices.Contains(holds[k], h) {
			holds[k] = append(holds[k], h)
		} else if holds[k] == nil {
			holds[k] = []string{}
		}
	}
	if len(order) == 0 {
		return "not measured"
	}
	says := make([]string, len(order))
	for i, k := range order {
		says[i] = k.what + " (" + k.detail
		if len(order) > 1 && len(holds[k]) > 0 {
			says[i] += "; held " + strings.Join(holds[k], ", ")
		}
		says[i] += ")"
	}
	return strings.Join(says, "; ")
}

// lateServer says whether a server ready after the first request reached a
// later one, from the runs past the budget: its instructions and its tools
// "from request N" or "lost for the session". Only the requests sent
// after the server was ready (its reply that completed the handshake, in
// its log) count: one sent before could not have had it, whatever the
// client does with a late server.
func lateServer(past []analyze.Result) string {
	best, most, gaveUp := "", 0, ""
	for _, r := range past {
		var main []analyze.RequestFacts
		for _, q := range r.Requests {
			if !q.Side {
				main = append(main, q)
			}
		}
		ready := r.Timing.ServerReady
		if len(main) >= 2 && ready == nil && gaveUp == "" {
			gaveUp = abandoned(r.Timing, main)
		}
		if len(main) < 2 || ready == nil {
			continue
		}
		// The first request after the server was ready, never the first
		// request (which the run, past the budget, sent without it).
		after := slices.IndexFunc(main, func(q analyze.RequestFacts) bool { return q.Time.After(*ready) })
		if after < 0 {
			continue
		}
		after = max(after, 1)
		if len(main)-after <= most {
			continue
		}
		most = len(main) - after
		text, tools := "lost for the session", "lost for the session"
		if r.Sent == 0 {
			text = "none sent"
		}
		for i := len(main) - 1; i >= after; i-- {
			if main[i].Best() != nil {
				text = fmt.Sprintf("from request %d", i+1)
			}
			if main[i].ShowsLabTool() {
				tools = fmt.Sprintf("from request %d", i+1)
			}
		}
		best = fmt.Sprintf("instructions %s, tools %s (%d requests, %d of them after the server was ready)", text, tools, len(main), len(main)-after)
	}
	switch {
	case best != "":
		return best
	case gaveUp != "":
		return gaveUp
	}
	return "not measured: no run past the budget made a request after its server was ready (give a probe row whose script makes one, as -matrix and -row)"
}

// abandoned reads a run past the budget whose server never became ready
// although its hold ended before the client's last request: the client
// gave up on it (Claude Code 2.1.332 sends notifications/cancelled for its
// initialize at the budget), so no later request could have it. It says so
// when none of the requests shows the server, and "" when the run cannot
// tell (the server's start unknown, or the run over before the hold ended).
func abandoned(t analyze.Timing, main []analyze.RequestFacts) string {
	if t.ServerStart == nil {
		return ""
	}
	due := t.ServerStart.Add(time.Duration(t.HeldMS * float64(time.Millisecond)))
	if !main[len(main)-1].Time.After(due) {
		return ""
	}
	later := 0
	for _, q := range main {
		if q.Best() != nil || q.ShowsLabTool() {
			return ""
		}
		if q.Time.After(due) {
			later++
		}
	}
	return fmt.Sprintf("instructions and tools lost for the session: the client gave up on the server before it was ready (%d requests, %d of them after its hold ended, none with it)", len(main), later)
}

// seconds writes a number of seconds to a tenth, or in milliseconds below
// one second.
func seconds(v float64) string {
	if v < 1 {
		return fmt.Sprintf("%.0f ms", v*1000)
	}
	return fmt.Sprintf("%.1f s", v)
}

// firstLine is the first line of a run's failure reason, for a sentence.
func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return s
}
