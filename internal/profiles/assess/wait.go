package assess

import (
	"fmt"
	"strconv"
	"time"
	"unicode"

	"github.com/instrlab/instrlab/internal/profiles"
	"github.com/instrlab/instrlab/internal/table"
)

// A wait is how long a client following a profile waits for a server to
// connect, and where that number comes from: a setting or the client's
// documentation (one number, d), or a wait budget measured by instrlab
// budget (a range: it waited for a server ready after d, not for one
// ready after upto).
type wait struct {
	d   time.Duration // 0: unknown
	why string        // "MCP_TIMEOUT, default" or "MCP_TIMEOUT=60000"
	// budget is the measured wait budget d and upto come from, nil when
	// the wait is a setting's or the documentation's.
	budget *profiles.Budget
	upto   time.Duration
}

// startupWait reads the profile's startup wait, with its setting taken
// from the environment as Claude Code reads MCP_TIMEOUT:
// parseInt(value, 10) || default, so "25,000" is 25 ms, "10s" is 10 ms,
// and "0" or "abc" give the default. Unless the setting is set, a wait
// budget the profile measured with nothing set comes before the
// documented default.
func startupWait(p profiles.Profile, getenv func(string) (string, bool)) wait {
	w := wait{d: time.Duration(p.Startup.TimeoutMs) * time.Millisecond}
	if p.Startup.Setting != "" {
		w.why = p.Startup.Setting + ", default"
		if v, ok := getenv(p.Startup.Setting); ok {
			if n, ok := jsParseInt(v); ok && n != 0 {
				return wait{d: time.Duration(n) * time.Millisecond, why: fmt.Sprintf("%s=%s", p.Startup.Setting, v)}
			}
		}
	}
	if b := defaultBudget(p, profiles.BudgetWait, "s"); b != nil {
		m := wait{budget: b, d: secs(b.Within), upto: secs(b.Past)}
		m.why = fmt.Sprintf("measured: instrlab budget, %d runs, %s", b.Runs, b.Date)
		if b.MaxLoad > 0 {
			m.why += ", load up to " + strconv.FormatFloat(b.MaxLoad, 'f', 1, 64)
		}
		return m
	}
	return w
}

func secs(v float64) time.Duration { return time.Duration(v * float64(time.Second)) }

func (w wait) String() string {
	switch b := w.budget; {
	case b == nil && w.why == "":
		return w.d.String()
	case b == nil:
		return fmt.Sprintf("%v (%s)", w.d, w.why)
	case b.Above:
		return fmt.Sprintf("at least %s (%s)", sec(w.d), w.why)
	case b.Below:
		return fmt.Sprintf("under %s: not for a server ready at once (%s)", sec(w.upto), w.why)
	}
	return fmt.Sprintf("%s–%s (%s)", sec(w.d), sec(w.upto), w.why)
}

// sec writes a wait to a tenth of a second, or in milliseconds below one.
func sec(d time.Duration) string {
	if d < time.Second {
		return table.Num(int(d.Milliseconds())) + " ms"
	}
	return strconv.FormatFloat(d.Seconds(), 'f', 1, 64) + " s"
}

// span is the wait in a few words: "1.2–1.3 s", "at least 60 s", "30 s".
func (w wait) span() string {
	switch b := w.budget; {
	case b == nil:
		return sec(w.d)
	case b.Above:
		return "at least " + sec(w.d)
	case b.Below:
		return "under " + sec(w.upto)
	}
	return secSpan(w.d, w.upto)
}

// secSpan writes a range of waits in one unit where it can: "12–111 ms",
// "1.2–1.3 s", "800 ms–1.3 s".
func secSpan(a, b time.Duration) string {
	switch {
	case a < time.Second && b < time.Second:
		return table.Num(int(a.Milliseconds())) + "–" + sec(b)
	case a >= time.Second:
		return strconv.FormatFloat(a.Seconds(), 'f', 1, 64) + "–" + sec(b)
	}
	return sec(a) + "–" + sec(b)
}

// tooLateFor reports whether a server whose first reply came after
// first (0: none within check's timeout) is past the whole wait.
func (w wait) tooLateFor(first, timeout time.Duration) bool {
	if first == 0 {
		return w.upto > 0 && w.upto <= timeout || w.budget == nil && w.d > 0 && w.d <= timeout
	}
	return !(w.budget != nil && w.budget.Above) && (w.upto == 0 && first > w.d || w.upto > 0 && first >= w.upto)
}

// inTime says whether a server makes it in time for a client that waits
// w: one whose first reply came after first, or, when first is 0, one
// that did not reply within check's timeout (not measured beyond it).
// It is "" when w is unknown.
func (w wait) inTime(first, timeout time.Duration) string {
	past := "" // what the client does past it, where measured
	if b := w.budget; b != nil && b.PastBudget != "" {
		past = "; past it the client " + b.PastBudget
	}
	switch {
	case w.d == 0 && w.upto == 0:
		return ""
	case first == 0 && w.budget != nil && w.budget.Above && w.d >= timeout:
		return fmt.Sprintf("it waits %s: a reply within that reaches it (check waited %v, not beyond)", w, timeout)
	case first == 0 && w.upto > 0 && w.upto <= timeout || first == 0 && w.budget == nil && w.d <= timeout:
		return fmt.Sprintf("it waits %s, and this server did not answer within %v: too late for it%s", w, timeout, past)
	case first == 0:
		return fmt.Sprintf("it waits %s: it gets this server only if it answers within that (check waited %v, not beyond)%s", w, timeout, past)
	case w.budget != nil && w.budget.Above || first <= w.d:
		return fmt.Sprintf("first reply after %v, within its wait, %s", ms(first), w)
	case w.upto == 0 || first >= w.upto:
		return fmt.Sprintf("first reply after %v, later than it waits, %s: too late for it%s", ms(first), w, past)
	}
	return fmt.Sprintf("first reply after %v, inside the range where it gives up, %s: a race", ms(first), w)
}

// jsParseInt is JavaScript's parseInt(s, 10): leading white space, an
// optional sign, then as many decimal digits as there are; false when
// there are none (NaN).
func jsParseInt(s string) (int64, bool) {
	rs := []rune(s)
	i := 0
	for i < len(rs) && (unicode.IsSpace(rs[i]) || rs[i] == '\ufeff') {
		i++
	}
	neg := false
	if i < len(rs) && (rs[i] == '+' || rs[i] == '-') {
		neg = rs[i] == '-'
		i++
	}
	var n int64
	digits := 0
	for ; i < len(rs) && rs[i] >= '0' && rs[i] <= '9'; i++ {
		if n < 1<<50 {
			n = n*10 + int64(rs[i]-'0')
		}
		digits++
	}
	if digits == 0 {
		return 0, false
	}
	if neg {
		n = -n
	}
	return n, true
}

// shortWait is the wait under which a client is left out of SampleAbove:
// it races any server (Droid 0.225.2 waits 12–111 ms), as the runner's
// gate leaves it out of its budget (docs/run.md).
const shortWait = 100 * time.Millisecond

// SampleAbove is the first reply from which check times more start-ups
// of a stdio server (probe.Options.SampleAbove): a quarter of the
// shortest wait of the profiles, measured or documented, of shortWait or
// more; a server that starts sooner is far inside every such wait, and
// one sample decides its start-up verdicts. ok is false when no profile
// says such a wait: no verdict needs the samples.
func SampleAbove(ps []profiles.Profile, getenv func(string) (string, bool)) (d time.Duration, ok bool) {
	if getenv == nil {
		getenv = func(string) (string, bool) { return "", false }
	}
	for _, p := range ps {
		if w := startupWait(p, getenv); w.d >= shortWait && (!ok || w.d/4 < d) {
			d, ok = w.d/4, true
		}
	}
	return d, ok
}

// SampleAboveOf is SampleAbove of the views pick gives once it gives them
// (profiles.PickLater), as probe.Options.SampleAbove asks: none when they
// could not be made.
func SampleAboveOf(pick func() ([]profiles.Profile, error), getenv func(string) (string, bool)) func() (time.Duration, bool) {
	return func() (time.Duration, bool) {
		ps, err := pick()
		if err != nil {
			return 0, false
		}
		return SampleAbove(ps, getenv)
	}
}
