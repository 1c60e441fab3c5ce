package report

import (
	"fmt"
	"slices"
	"strings"

	"github.com/instrlab/instrlab/internal/loss"
	"github.com/instrlab/instrlab/internal/matrix/analyze"
	"github.com/instrlab/instrlab/internal/surface"
	"github.com/instrlab/instrlab/internal/table"
)

// A Verdict is what one client did with a user's server in a run, in a
// word and the losses that decide it, on the scale of check's verdicts
// (internal/loss), measured from the run's evidence (the recorded
// requests and the server's log), never predicted: whether the server's
// instructions reached the model whole, cut, late or not at all; whether
// any of its tools or instructions reached a request, and each tool that
// did not reach the first one when others did; each tool description cut; and, for the tools the run called (-call), the part
// of a result the model did not get, or got cut. What a run does not
// measure (a schema's keywords, a tool's name) is not in it: check -v
// predicts them.
type Verdict struct {
	// Server is the matrix row of the user's server,
	// Client the client (name@version), Arm its arm when not the default.
	Server  string       `json:"server"`
	Client  string       `json:"client"`
	Arm     string       `json:"arm,omitempty"`
	Verdict loss.Verdict `json:"verdict"`
	// Because are the one or two worst losses, in a few words; More
	// counts the others, degraded or worse.
	Because []string `json:"because,omitempty"`
	More    int      `json:"more,omitempty"`
	// Runs is how many of the client's runs of the row say
	// this, of Of that finished; a verdict that differs from run to run
	// is the worst, with its count (a race with the server's start-up
	// often is).
	Runs int `json:"runs"`
	Of   int `json:"of"`
}

// Verdicts are the verdicts of every client on every user's server the
// results ran (rows of the lab get none), one per
// row, client and arm, in the order of the results.
func Verdicts(results []analyze.Result) []Verdict {
	type key struct{ server, client, arm string }
	var keys []key
	runs := map[key][]*analyze.Result{}
	for i := range results {
		r := &results[i]
		if r.Server == "" {
			continue
		}
		arm := ""
		if !r.Arm.Default {
			arm = r.Arm.Name
		}
		k := key{r.Row, r.Client, arm}
		if _, ok := runs[k]; !ok {
			keys = append(keys, k)
		}
		runs[k] = append(runs[k], r)
	}
	var out []Verdict
	for _, k := range keys {
		out = append(out, verdictOf(k.server, k.client, k.arm, runs[k]))
	}
	return out
}

// verdictOf is the verdict of one client's runs of one row:
// not measured when none finished; else each finished run's, the worst
// when they differ.
func verdictOf(server, client, arm string, rs []*analyze.Result) Verdict {
	v := Verdict{Server: server, Client: client, Arm: arm, Verdict: loss.VerdictUnknown}
	var reasons []string
	type seen struct {
		v    Verdict
		runs int
	}
	var kinds []seen
	for _, r := range rs {
		if r.Status != analyze.StatusOK {
			if !slices.Contains(reasons, r.Reason) {
				reasons = append(reasons, r.Reason)
			}
			continue
		}
		v.Of++
		w := runVerdict(r)
		i := slices.IndexFunc(kinds, func(s seen) bool {
			return s.v.Verdict == w.Verdict && slices.Equal(s.v.Because, w.Because) && s.v.More == w.More
		})
		if i < 0 {
			kinds = append(kinds, seen{v: w})
			i = len(kinds) - 1
		}
		kinds[i].runs++
	}
	if v.Of == 0 {
		v.Because = []string{"no run finished: " + strings.Join(reasons, "; ")}
		return v
	}
	worst := kinds[0]
	for _, s := range kinds[1:] {
		if s.v.Verdict.Rank() < worst.v.Verdict.Rank() {
			worst = s
		}
	}
	v.Verdict, v.Because, v.More, v.Runs = worst.v.Verdict, worst.v.Because, worst.v.More, worst.runs
	return v
}

// runVerdict is the verdict of one finished run.
func runVerdict(r *analyze.Result) Verdict {
	var v Verdict
	var because []loss.Loss
	v.Verdict, because, v.More = loss.Decide(runLosses(r))
	for _, l := range because {
		v.Because = append(v.Because, l.String())
	}
	return v
}

// runLosses are the losses one run measured of its user's server, in
// check's words for the same losses.
func runLosses(r *analyze.Result) []loss.Loss {
	var out []loss.Loss
	reached := false // did anything of the server reach a request
	if r.Sent > 0 {
		switch b, later := r.First.Best(), laterArrival(r); {
		case b == nil && later == nil:
			out = append(out, loss.Loss{Severity: loss.Broken, Words: "gets none of the instructions"})
		case b == nil:
			reached = true
			out = append(out, loss.Loss{Severity: loss.Degraded, Words: fmt.Sprintf("gets the instructions only from request %d", later.Seq)})
		case !b.Full:
			reached = true
			out = append(out, loss.Loss{Severity: loss.Degraded, Words: fmt.Sprintf("keeps %s of %s characters of instructions", table.Num(b.Kept), table.Num(r.Sent))})
		default:
			reached = true
		}
	}
	var missing []string // tools that did not reach the first request
	for _, t := range r.Tools {
		if t.Via != "" {
			reached = true
		} else {
			missing = append(missing, t.Name)
		}
		if t.Found && !t.Full {
			out = append(out, loss.Loss{Severity: loss.Degraded, Words: "description cut", Tools: []string{t.Name}}) // where: the tools sent column
		}
	}
	switch {
	case !reached && (len(r.Tools) > 0 || r.Timing.ServerReady == nil && r.Timing.FirstRequest != nil):
		words := "nothing of the server reached a request"
		if late := lateWords(r.Timing); late != "" {
			words = "drops the server: " + late
		}
		out = append([]loss.Loss{{Severity: loss.Broken, Words: words}}, out...)
	case len(missing) > 0:
		// The client took the server and left these tools out (Gemini CLI
		// 0.61.0 hides a server's write_file, a name of its own).
		out = append([]loss.Loss{{Severity: loss.Broken, Words: "never reached the first request", Tools: missing}}, out...)
	}
	if r.Surface != nil {
		for _, c := range r.Surface.Calls {
			out = append(out, callLosses(c)...)
		}
	}
	return out
}

// lateWords says, the same way for every client, how a server that
// reached no request was late: when it answered, from its start, and
// when the client's first request went without it; "" when the server
// was ready before that request (it was not late: something else lost
// it) or the times are not in the evidence.
func lateWords(t analyze.Timing) string {
	if t.ServerStart == nil || t.FirstRequest == nil {
		return ""
	}
	first := t.FirstRequest.Sub(*t.ServerStart)
	switch {
	case t.ServerReady == nil:
		return fmt.Sprintf("its first request went %s after the server's start, which had not answered then and never did before the session ended", analyze.Seconds(first))
	case t.ServerReady.After(*t.FirstRequest):
		return fmt.Sprintf("the server answered %s after its start, %s after the client's first request went without it", analyze.Seconds(t.ServerReady.Sub(*t.ServerStart)), analyze.Seconds(t.ServerReady.Sub(*t.FirstRequest)))
	}
	return ""
}

// callLosses are the losses of one call's result: a part the client did
// not give the model (where its other part is not the same text), a part
// that arrived cut. A call that never reached the server, or whose
// result no request carried, is no loss of a result here: the calls
// table says why.
func callLosses(c surface.CallFacts) []loss.Loss {
	if !c.Reached || c.Following == 0 {
		return nil
	}
	var out []loss.Loss
	var sentText, sentStructured, same bool
	for _, p := range c.Parts {
		switch {
		case strings.HasPrefix(p.Part, "content["):
			sentText = true
		case p.Part == "structuredContent":
			sentStructured = true
		}
		same = same || p.SameAs != ""
		if p.Reached && !p.Full {
			out = append(out, loss.Loss{Severity: loss.Degraded, Words: fmt.Sprintf("%s cut at %s characters", p.Part, table.Num(p.Kept)), Tools: []string{c.Tool}})
		}
	}
	text, structured := surface.Reached(c.Parts)
	switch {
	case !sentText || !sentStructured || same:
	case text && !structured:
		out = append(out, loss.Loss{Severity: loss.Degraded, Words: "no structuredContent", Tools: []string{c.Tool}})
	case structured && !text:
		out = append(out, loss.Loss{Severity: loss.Degraded, Words: "no content text", Tools: []string{c.Tool}})
	case !text && !structured:
		out = append(out, loss.Loss{Severity: loss.Broken, Words: "no part of its result reached the model", Tools: []string{c.Tool}})
	}
	return out
}

// Decides is what decides the verdict, in a few words: the worst loss,
// how many more, and in how many runs when not all.
func (v Verdict) Decides() string {
	s := loss.Decides(v.Because, v.More)
	if v.Runs < v.Of {
		if s != "" {
			s += "; "
		}
		s += fmt.Sprintf("in %d of %d runs", v.Runs, v.Of)
	}
	return s
}

// verdictsTable is the verdicts as a table, for the summary and
// table.md: a line per user's server, client and arm.
func verdictsTable(vs []Verdict) table.Table {
	t := table.Table{Title: "Verdicts, measured in these runs", Columns: []table.Column{{Name: "verdict"}, {Name: "server"}, {Name: "client"}, {Name: "what decides it"}}}
	for _, v := range vs {
		who := analyze.Who(v.Client, v.Arm, v.Arm == "")
		t.Rows = append(t.Rows, []table.Cell{{Text: string(v.Verdict)}, {Text: v.Server}, {Text: who}, {Text: v.Decides()}})
	}
	t.Notes = []string{"On check's scale (instrlab help finding): broken, the model lost the server, a tool or every instruction; degraded, a part. From the requests the client sent and the server's log: the instructions, the tools' descriptions, and the results of the tools -call called; a schema's keywords and the tools' names are check's to predict (check -v)."}
	return t
}
