package budget

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/instrlab/instrlab/internal/fakeapi"
	"github.com/instrlab/instrlab/internal/matrix"
	"github.com/instrlab/instrlab/internal/matrix/analyze"
	"github.com/instrlab/instrlab/internal/profiles"
	"github.com/instrlab/instrlab/internal/surface"
	"github.com/instrlab/instrlab/internal/table"
	"github.com/instrlab/instrlab/lab"
)

// ResultSize names the result-size budget: the longest tool result a
// client gives the model whole.
const ResultSize = profiles.BudgetResult

// resultTool is the lab's tool of one long text (the size group's
// result_size; its twin result_size_meta, which asks Claude Code for room,
// is not called).
const resultTool = "result_size"

// The result size's range: a result of 100 to 1,000,000 characters, well
// inside the reply the lab's log keeps whole (8 MiB), which the analysis
// needs to tell what was cut.
const (
	resultMin = 100
	resultMax = 1_000_000
)

// ResultSearch is the result size's search: one text block of 100 to
// 1,000,000 characters of ASCII text (characters, bytes and UTF-16 units
// are one count), bisected to the exact count, from the middle first: at
// most ceil(log2(999,900)) + 1 = 21 runs.
func ResultSearch() Search {
	return Search{Lo: resultMin, Hi: resultMax, Resolution: Exact, Next: Halve, SplitFirst: true}
}

func resultKind() kind {
	return kind{name: ResultSize, unit: "characters", search: ResultSearch(),
		vary: func(row *matrix.Row, v float64) {
			row.Surface = string(lab.SurfaceSize)
			row.ResultSize = fmt.Sprintf("%s:%d", lab.English, int(v))
			row.Call([]fakeapi.Call{{Tool: resultTool}})
			row.NoDelta = true
			row.Label += fmt.Sprintf(", a tool result of %s", count(v, "character"))
		},
		astral: func(row *matrix.Row, n int) {
			row.Surface = string(lab.SurfaceSize)
			row.ResultSize = fmt.Sprintf("%s:%d", lab.Emoji, n)
			row.Call([]fakeapi.Call{{Tool: resultTool}})
			row.NoDelta = true
			row.Label += fmt.Sprintf(", a tool result of %s of emoji", count(float64(n), "character"))
		},
		sent: func(r analyze.Result) sentSize {
			c, ok := calledResult(r)
			if !ok || len(c.Parts) == 0 {
				return sentSize{}
			}
			p := c.Parts[0]
			s := sentSize{cp: p.Sent, utf16: p.SentUTF16, bytes: p.SentBytes}
			if s.utf16 == 0 {
				s.utf16 = p.Sent
			}
			if s.bytes == 0 {
				s.bytes = p.Sent
			}
			return s
		},
		outcome: resultOutcome,
		past:    resultPast,
		format:  func(v float64) string { return count(v, "character") },
		say: func(m Measurement) string {
			switch {
			case m.Below:
				return fmt.Sprintf("does not give the model whole a result of %s, the shortest tried", count(m.Past, "character"))
			case m.Above:
				return fmt.Sprintf("gives the model a result of %s whole, the longest tried", count(m.Within, "character"))
			}
			return fmt.Sprintf("gives the model a result of up to %s whole", count(m.Within, "character"))
		},
		note: "result: the longest tool result (one text block of ASCII text: characters, bytes and UTF-16 units are one count) whose text reaches the model whole in the request after the call, and what the model gets of one a character longer; the lab's result_size, called by the fake model."}
}

// calledResult is run r's call of the result tool, if it made one.
func calledResult(r analyze.Result) (surface.CallFacts, bool) {
	if r.Surface == nil {
		return surface.CallFacts{}, false
	}
	for _, c := range r.Surface.Calls {
		if c.Tool == resultTool {
			return c, true
		}
	}
	return surface.CallFacts{}, false
}

// resultOutcome reads one run of the result size: within when the text
// of the tool's result reached the request after the call whole; past
// when it did not, or when requests followed the call and none carried
// its result (Continue CLI, its context overflowed, summarizes the
// conversation without it, and calls again: the run ends at its
// timeout, yet has told the budget).
func resultOutcome(v float64, r analyze.Result) Outcome {
	o := Outcome{Value: v, At: v, Dir: r.Dir}
	c, called := calledResult(r)
	answered := called && c.Reached && c.Answer == surface.AnswerResult
	switch {
	case answered && len(c.Parts) > 0 && c.Parts[0].Sent != int(v):
		// The size is what reached the server's log, not what was asked:
		// a server that sends another size measures nothing.
		o.Failed = fmt.Sprintf("the server's result of %s was %s, not the %s asked: what it sent is measured, and it was not the size the search needs", resultTool, count(float64(c.Parts[0].Sent), "character"), count(v, "character"))
		return o
	case answered && c.Following > 0 && len(c.Parts) > 0:
		o.Within = c.Parts[0].Full
		return o
	case answered && c.Following == 0 && after(r, c.Request) > 0:
		return o
	case r.Status != analyze.StatusOK:
		o.Failed = r.Reason
	case !called:
		o.Failed = "the client did not call " + resultTool
		if r.Surface != nil {
			for _, m := range r.Surface.NotCalled {
				if m.Tool == resultTool {
					o.Failed += ": " + m.Why
				}
			}
		}
	case !c.Reached:
		o.Failed = "the call of " + resultTool + " did not reach the server"
	case c.Answer != surface.AnswerResult:
		o.Failed = fmt.Sprintf("the server's answer to %s is %s in its log", resultTool, c.Answer)
	case c.Following == 0:
		o.Failed = "no request followed the call of " + resultTool
	default:
		o.Failed = "the result of " + resultTool + " has no part to look for"
	}
	return o
}

// after counts run r's model requests after request seq.
func after(r analyze.Result, seq int) int {
	n := 0
	for _, q := range r.Requests {
		if q.Seq > seq {
			n++
		}
	}
	return n
}

// resultPast says what the model gets of a result past the budget, from
// the run nearest it: the start of the text and what follows it (a cut),
// or none of it and how the tool result begins instead (the client's
// error, a saved file's path).
func resultPast(f Found, past []analyze.Result) string {
	if len(past) == 0 {
		return "not measured"
	}
	c, ok := calledResult(past[0])
	if !ok || c.Following > 0 && len(c.Parts) == 0 {
		return "not measured"
	}
	if c.Following == 0 {
		return fmt.Sprintf("none of its text reaches the model: no request after the call carries its result (%d followed it without it)", after(past[0], c.Request))
	}
	p := c.Parts[0]
	size := fmt.Sprintf(" (at %s)", count(float64(p.Sent), "character"))
	instead := ""
	if c.Instead != "" {
		// A path into the run's directory (a file the client saved the
		// result to) is this machine's: written as RUN.
		head := c.Instead
		if abs, err := filepath.Abs(past[0].Dir); err == nil && past[0].Dir != "" {
			head = strings.ReplaceAll(head, abs, "RUN")
		}
		instead = fmt.Sprintf("; the tool result, %s, begins %s", count(float64(c.ResultChars), "character"), table.Quote(head, 100))
	}
	switch {
	case !p.Reached:
		return "none of its text reaches the model" + instead + size
	case !p.InResult:
		return fmt.Sprintf("%s of its start reach the model outside the call's result%s%s", table.Num(p.Kept), instead, size)
	case p.Suffix == "":
		// The kept start ends the segment: the client put its own text
		// before it (Copilot CLI's "Output too large…", a saved file's
		// path and a preview).
		return fmt.Sprintf("cuts it: the model gets its first %s and nothing after them%s%s", count(float64(p.Kept), "character"), instead, size)
	}
	return fmt.Sprintf("cuts it: the model gets its first %s, then %s%s", count(float64(p.Kept), "character"), table.Quote(p.Suffix, 40), size)
}
