package budget

import (
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/instrlab/instrlab/internal/fakeapi"
	"github.com/instrlab/instrlab/internal/matrix"
	"github.com/instrlab/instrlab/internal/matrix/analyze"
	"github.com/instrlab/instrlab/internal/profiles"
	"github.com/instrlab/instrlab/internal/surface"
	"github.com/instrlab/instrlab/lab"
)

// CallTime names the call budget: how long a client waits for a tool's
// result.
const CallTime = profiles.BudgetCall

// The call budget's range: a tool that answers 1 s to 2 minutes after
// the server got the call. A client that waits longer is "at least 2
// minutes": a run past the top costs that long, and every client's run
// at it fits the command's default time limit of one run (3 minutes).
const (
	callMin = 1
	callMax = 120
)

// CallSearch is the call budget's search: the ends first, to a second.
// A client that gives up tells when (its cancel, or the request that
// carries its own result: Outcome.Hint), so one that gives up inside the
// range is bracketed in two more runs, a quarter of a second either side
// of the time it gave up: four runs in all, two for one that waits past
// the top.
func CallSearch() Search {
	return Search{Lo: callMin, Hi: callMax, Resolution: func(float64) float64 { return 1 },
		Next: func(within, past float64) float64 { return math.Round((within+past)/2*4) / 4 }}
}

func callKind() kind {
	return kind{name: CallTime, unit: "s", search: CallSearch(), timed: true,
		vary: func(row *matrix.Row, v float64) {
			row.Surface = string(lab.SurfaceHang)
			row.HangFor = time.Duration(v * float64(time.Second)).Round(time.Millisecond)
			row.Call([]fakeapi.Call{{Tool: lab.HangTool}})
			row.NoDelta = true
			row.Label += fmt.Sprintf(", a tool that answers %s after the server got the call", seconds(v))
		},
		outcome: callOutcome,
		past:    callPast,
		format:  seconds,
		say: func(m Measurement) string {
			switch {
			case m.Below:
				return "gives up on a tool's result before " + seconds(m.Past)
			case m.Above:
				return "waits for a tool's result at least " + seconds(m.Within) + ", the longest tried"
			}
			return "waits " + seconds(m.Within) + "–" + seconds(m.Past) + " for a tool's result"
		},
		note: "call: how long the client waits for a tool's result: the lab's bad_hang, called by the fake model, answered the value after the server got the call; the budget lies between the longest delay whose result reached the model and the shortest the client gave up on, each met by a run; past it, what the client did (its notifications/cancelled, what the model got instead)."}
}

// calledHang is run r's call of the hang tool, if it made one.
func calledHang(r analyze.Result) (surface.CallFacts, bool) {
	if r.Surface == nil {
		return surface.CallFacts{}, false
	}
	for _, c := range r.Surface.Calls {
		if c.Tool == lab.HangTool {
			return c, true
		}
	}
	return surface.CallFacts{}, false
}

// callOutcome reads one run of the call budget: past when the client
// gave up on the call before the server answered (it cancelled it, or
// sent the model a result of its own first), its Hint when it did;
// within when the server's answer reached the request after the call.
// Anything else tells nothing of the time: a call that never reached the
// server, a run that ended without a request after the call.
func callOutcome(v float64, r analyze.Result) Outcome {
	o := Outcome{Value: v, At: v, Dir: r.Dir}
	c, called := calledHang(r)
	switch {
	case called && c.GaveUp != nil:
		o.Hint = c.GaveUp.AfterMS() / 1000
	case r.Status != "ok":
		o.Failed = r.Reason
	case !called:
		o.Failed = "the model never called " + lab.HangTool + notCalledWhy(r)
	case !c.Reached:
		o.Failed = fmt.Sprintf("the call of %s never reached the server (the model got %q)", lab.HangTool, c.Instead)
	case c.Answer != surface.AnswerResult:
		o.Failed = fmt.Sprintf("the server's answer to %s was %s, not its result", lab.HangTool, c.Answer)
	case c.Following == 0:
		o.Failed = "no request after the call carried its result"
	case len(c.Parts) == 0 || !c.Parts[0].Full:
		o.Failed = fmt.Sprintf("the server answered first, yet its result did not reach the model whole (it got %q): a loss of the result, not of time", c.Instead)
	default:
		o.Within = true
	}
	return o
}

// notCalledWhy is why run r made no scripted call, as its surface facts
// say (": the client never offered it to the model"), or "".
func notCalledWhy(r analyze.Result) string {
	if r.Surface != nil {
		for _, m := range r.Surface.NotCalled {
			if m.Tool == lab.HangTool {
				return ": " + m.Why
			}
		}
	}
	return ""
}

// callPast says what the client does past the budget, from the run
// nearest it: when it gave up, whether it cancelled the call (and why, in
// its words), and what the model got in the place of the result.
func callPast(f Found, past []analyze.Result) string {
	for _, r := range past {
		c, ok := calledHang(r)
		if !ok || c.GaveUp == nil {
			continue
		}
		g := c.GaveUp
		s := "gives up " + seconds(g.AfterMS()/1000) + " after the server got the call"
		switch {
		case g.CancelMS != nil && g.Reason != "":
			s += ", cancels it (notifications/cancelled, " + strconv.Quote(g.Reason) + ")"
		case g.CancelMS != nil:
			s += ", cancels it (notifications/cancelled, no reason)"
		default:
			s += ", sends no notifications/cancelled"
		}
		switch {
		case c.Following == 0:
			s += "; the model gets no result for it"
		case c.Instead != "":
			s += "; the model gets " + strconv.Quote(c.Instead)
		default:
			s += "; the model gets an empty result"
		}
		return s
	}
	return "not measured"
}
