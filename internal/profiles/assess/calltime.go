package assess

import (
	"fmt"
	"time"

	"github.com/instrlab/instrlab/internal/loss"
	"github.com/instrlab/instrlab/internal/probe"
	"github.com/instrlab/instrlab/internal/profiles"
)

// What a client does with how long a call took (CallFate.Time), from its
// call budget (instrlab budget -budget call).
const (
	// TimeGivesUp: the call took at least as long as a run the client
	// was measured to give up on.
	TimeGivesUp = "gives up"
	// TimeRace: between the longest delay the client was measured to wait
	// for and the shortest it gave up on.
	TimeRace = "race"
	// TimeBeyond: longer than the longest delay measured, which the
	// client waited for.
	TimeBeyond = "beyond"
)

// callBudget is p's call budget measured with nothing set, nil when none
// was.
func callBudget(p profiles.Profile) *profiles.Budget {
	return defaultBudget(p, profiles.BudgetCall, "s")
}

// callTimeFactName is the name of callTimeFact's fact.
const callTimeFactName = "a slow tool"

// callTimeFact says how long p's client waits for a tool's result, and
// what it does past that; not measured when it has no call budget.
func callTimeFact(p profiles.Profile) Fact {
	f := Fact{Name: callTimeFactName, Value: NotMeasured}
	if b := callBudget(p); b != nil {
		f.Value, f.Measured = callWaits(*b), true
		if b.PastBudget != "" && !b.Above {
			f.Value += "; past it, " + b.PastBudget
		}
	}
	return f
}

// callWaits is the call budget in words: "waits 59.8–60.3 s for a tool's
// result".
func callWaits(b profiles.Budget) string {
	switch {
	case b.Below:
		return "gives up on a tool's result before " + sec(secs(b.Past))
	case b.Above:
		return "waits for a tool's result at least " + sec(secs(b.Within)) + ", the longest measured"
	}
	return "waits " + sec(secs(b.Within)) + "–" + sec(secs(b.Past)) + " for a tool's result"
}

// callTime judges how long call c took in check against p's call budget:
// f.Time, with the budget's words, when the client would give up on it,
// race it or was not measured that long; nothing when it is well within,
// or no budget was measured (the view's fact says so).
func callTime(f *CallFate, p profiles.Profile, c probe.CallResult) {
	b := callBudget(p)
	if b == nil {
		return
	}
	took := time.Duration(c.Elapsed)
	switch {
	case (b.Below || !b.Above) && took >= secs(b.Past):
		f.Time, f.GivesUp = TimeGivesUp, b.PastBudget
	case !b.Above && !b.Below && took > secs(b.Within):
		f.Time, f.GivesUp = TimeRace, b.PastBudget
	case b.Above && took > secs(b.Within):
		f.Time = TimeBeyond
	default:
		return
	}
	f.Took, f.Waits = sec(took), callWaits(*b)
}

// callTimeFindings reports each called tool whose call took long enough
// that the client gives up on it (broken), races it (degraded), or took
// longer than the client was measured to wait (info: not measured).
func callTimeFindings(l *findingList, v View) {
	for _, f := range v.Calls {
		switch f.Time {
		case TimeGivesUp:
			l.of(v, CallSlow, f.Tool, "its call took %s in check, and the client %s (measured); past that it %s", f.Took, f.Waits, f.GivesUp).
				tool(f.Tool).lose("no result: the call took %s, the client %s", f.Took, f.Waits).
				fix("answer within the client's wait (now %s): return what is ready and let the model call again for the rest", f.Took)
		case TimeRace:
			l.of(v, CallSlow, f.Tool, "its call took %s in check, and the client %s (measured): a race; past that it %s", f.Took, f.Waits, f.GivesUp).
				at(loss.Degraded).tool(f.Tool).lose("a race: the call took %s, the client %s", f.Took, f.Waits).
				fix("answer well within the client's wait (now %s)", f.Took)
		case TimeBeyond:
			l.of(v, CallSlow, f.Tool, "its call took %s in check, longer than the client was measured to wait (it %s): beyond that, %s", f.Took, f.Waits, NotMeasured).
				at(loss.Info).tool(f.Tool).lose("the call took %s; whether the client waits that long is %s", f.Took, NotMeasured)
		}
	}
}

// timeLine is what a call line says of the call's time, "" for nothing.
func timeLine(f CallFate) string {
	switch f.Time {
	case TimeGivesUp:
		return fmt.Sprintf("; it took %s, and the client %s: it gives up first (%s)", f.Took, f.Waits, f.GivesUp)
	case TimeRace:
		return fmt.Sprintf("; it took %s, and the client %s: a race", f.Took, f.Waits)
	case TimeBeyond:
		return fmt.Sprintf("; it took %s, and the client %s: beyond, %s", f.Took, f.Waits, NotMeasured)
	}
	return ""
}
