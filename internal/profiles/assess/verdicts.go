package assess

import (
	"fmt"
	"slices"
	"strings"

	"github.com/instrlab/instrlab/internal/loss"
	"github.com/instrlab/instrlab/internal/probe"
)

// A ClientVerdict is what one client version does with the server in a
// word, and the facts that decide it: for the client's own way of
// running (its profile's first view), and again for each group of its
// other ways (arms, models, flags) where the verdict or its facts
// differ.
type ClientVerdict struct {
	Client  string `json:"title"`
	Profile string `json:"client"`
	// Ways are the ways of running the client it holds for (View.Way);
	// Summary says them in words for a line after the client's own (""
	// for the client's own line).
	Ways    []string     `json:"arms"`
	Summary string       `json:"arms_summary,omitempty"`
	Verdict loss.Verdict `json:"verdict"`
	// Because are the one or two worst losses that decide the verdict,
	// each in a few words ("keeps 2,048 of 6,000 characters of
	// instructions", "3 tools: the model gets structuredContent, not the
	// content text"), with their codes; More counts the client's other
	// losses, degraded or worse.
	Because []string `json:"because,omitempty"`
	Codes   []Code   `json:"codes,omitempty"`
	More    int      `json:"more,omitempty"`
}

// verdicts says, per client version, what it does with the server: its
// first view's verdict, then each group of its other views whose verdict
// and facts differ from it. The facts are the view's own (no era, no
// tools, the server lost to a probe) and the findings that hold for it
// (raw: one holder each, before merge); findings about the server alone
// are problems, not a client's verdict.
func verdicts(s Server, raw []Finding) []ClientVerdict {
	var out []ClientVerdict
	for _, group := range viewGroups(s.Views) {
		u := waysOf(s.Views, group[0].Profile, group[0].Client)
		first := *group[0]
		head := viewVerdict(s, first, raw)
		head.Ways = []string{group[0].Way}
		var others []ClientVerdict
		for _, w := range group[1:] {
			c := notMeasuredIn(s, first, *w, raw, viewVerdict(s, *w, raw))
			if c.same(head) {
				head.Ways = append(head.Ways, w.Way)
				continue
			}
			i := slices.IndexFunc(others, c.same)
			if i < 0 {
				others = append(others, c)
				i = len(others) - 1
			}
			others[i].Ways = append(others[i].Ways, w.Way)
		}
		out = append(out, head)
		for _, o := range others {
			o.Summary = waysSummary(o.Ways, u)
			out = append(out, o)
		}
	}
	return out
}

// same reports whether two verdicts say the same: verdict and facts.
func (c ClientVerdict) same(d ClientVerdict) bool {
	return c.Verdict == d.Verdict && slices.Equal(c.Because, d.Because) && c.More == d.More
}

// viewVerdict is the verdict of one view.
func viewVerdict(s Server, v View, raw []Finding) ClientVerdict {
	c := ClientVerdict{Client: v.Client, Profile: v.Profile}
	switch {
	case !s.Reached:
		// A server later than the client waits is lost to it, measured;
		// what else it does with a server that did not answer is not.
		c.Verdict, c.Because = loss.VerdictUnknown, []string{"the server did not answer"}
		for _, f := range raw {
			if holds(f, v) && f.Severity == loss.Broken {
				c.Verdict, c.Because, c.Codes = loss.VerdictBroken, []string{f.Loss}, []Code{f.Code}
				break
			}
		}
		return c
	case v.NotMeasured:
		c.Verdict, c.Because = loss.VerdictUnknown, []string{"nothing of this client over HTTP is measured"}
		return c
	}
	var because []loss.Loss
	c.Verdict, because, c.More = loss.Decide(viewLosses(s, v, raw))
	for _, l := range because {
		c.Because, c.Codes = append(c.Because, l.String()), append(c.Codes, Code(l.Kind))
	}
	return c
}

// viewLosses are the losses of view v, for loss.Decide: those of the
// findings that hold for it and its own (ownLosses: a broken one only
// where no finding is broken), in the order of Docs within a severity.
func viewLosses(s Server, v View, raw []Finding) []loss.Loss {
	var out []loss.Loss
	for _, f := range raw {
		if holds(f, v) {
			l := loss.Loss{Severity: f.Severity, Kind: string(f.Code), Words: f.Loss}
			if f.Tool != "" {
				l.Tools = []string{f.Tool}
			}
			out = append(out, l)
		}
	}
	broken := slices.ContainsFunc(out, func(l loss.Loss) bool { return l.Severity == loss.Broken })
	for _, l := range ownLosses(s, v) {
		if !broken || l.Severity != loss.Broken {
			out = append(out, l)
		}
	}
	order := docOrder()
	slices.SortStableFunc(out, func(a, b loss.Loss) int { return order[a.Kind] - order[b.Kind] })
	return out
}

// holds reports whether finding f (one holder, before merge) is about
// the client and way of view v.
func holds(f Finding, v View) bool {
	return slices.ContainsFunc(f.For, func(h Holder) bool {
		return h.Profile == v.Profile && h.Client == v.Client && slices.Contains(h.Ways, v.Way)
	})
}

// ownLosses are the losses a view shows that no finding about a client
// says: a client in no era (it gets nothing of the server), a client in
// an era whose tools/list failed, and a probing client that may lose the
// server to its probe.
func ownLosses(s Server, v View) []loss.Loss {
	var out []loss.Loss
	if v.Era == "" && !v.NotMeasured {
		why, _, _ := strings.Cut(v.Why, ";")
		out = append(out, loss.Loss{Severity: loss.Broken, Kind: string(LegacyFailed), Words: "gets nothing of the server: " + why})
	}
	if e := eraOf(s, v.Era); v.Era != "" && e.ToolsError != "" && !(strings.Contains(e.ToolsError, "error -32601") && !slices.Contains(e.Capabilities, "tools")) {
		out = append(out, loss.Loss{Severity: loss.Broken, Kind: string(ToolsFailed), Words: "gets no tools: tools/list fails"})
	}
	if v.Probes && v.Era == probe.Legacy && s.Target.Transport != probe.TransportHTTP {
		switch sv := s.Survival; {
		// Whether this client starts the server again after its probe is
		// not measured (Claude Code 2.1.285 did not, in 20 of 20 runs).
		case sv.Verdict == probe.SurvivalExit:
			out = append(out, loss.Loss{Severity: loss.Degraded, Kind: string(ProbeExit), Words: "may lose the server: it exits on server/discover (" + NotMeasured + ")"})
		case sv.Fallback != nil && sv.Fallback.Outcome != probe.OutcomeOK:
			out = append(out, loss.Loss{Severity: loss.Degraded, Kind: string(FallbackFailed), Words: "may lose the server: initialize fails after server/discover (" + NotMeasured + ")"})
		case sv.Verdict == probe.SurvivalSilent:
			out = append(out, loss.Loss{Severity: loss.Degraded, Kind: string(ProbeSilent), Words: "may wait out its probe timeout: server/discover gets no answer"})
		}
	}
	return out
}

// Verdicts counts the client lines of each verdict: how many client
// versions (their own ways) work, are degraded, broken, not measured.
func (s Server) VerdictCounts() map[loss.Verdict]int {
	n := map[loss.Verdict]int{}
	for _, c := range s.Verdicts {
		if c.Summary == "" {
			n[c.Verdict]++
		}
	}
	return n
}

// VerdictWords says a server's verdicts in a line: "3 clients broken, 8
// degraded, 3 work" (client versions, their own ways).
func VerdictWords(s Server) string {
	n := s.VerdictCounts()
	var parts []string
	for _, v := range []loss.Verdict{loss.VerdictBroken, loss.VerdictDegraded, loss.Works, loss.VerdictUnknown} {
		if n[v] == 0 {
			continue
		}
		switch v {
		case loss.Works:
			parts = append(parts, fmt.Sprintf("%d work", n[v]))
		default:
			parts = append(parts, fmt.Sprintf("%d %s", n[v], v))
		}
	}
	if len(parts) == 0 {
		return "no client profile"
	}
	return "client versions: " + strings.Join(parts, ", ")
}
