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
	Client  string `json:"client"`
	Profile string `json:"profile"`
	// Ways are the ways of running the client it holds for (View.Way);
	// Summary says them in words for a line after the client's own (""
	// for the client's own line).
	Ways    []string     `json:"ways"`
	Summary string       `json:"ways_summary,omitempty"`
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

// A fact is one loss of one view: its severity, code and words, and how
// many tools it holds for.
type fact struct {
	severity loss.Severity
	code     Code
	loss     string
	tools    int
	tool     string
}

func (f fact) String() string {
	switch {
	case f.tools == 1:
		return "tool " + f.tool + ": " + f.loss
	case f.tools > 1:
		return fmt.Sprintf("%d tools: %s", f.tools, f.loss)
	}
	return f.loss
}

// verdicts says, per client version, what it does with the server: its
// first view's verdict, then each group of its other views whose verdict
// and facts differ from it. The facts are the view's own (no era, no
// tools, the server lost to a probe) and the findings that hold for it
// (raw: one holder each, before merge); findings about the server alone
// are problems, not a client's verdict.
func verdicts(s Server, raw []Finding) []ClientVerdict {
	var out []ClientVerdict
	seen := map[string]bool{}
	for _, v := range s.Views {
		if seen[v.Profile+"\x00"+v.Client] {
			continue
		}
		seen[v.Profile+"\x00"+v.Client] = true
		var group []View
		for _, w := range s.Views {
			if w.Profile == v.Profile && w.Client == v.Client {
				group = append(group, w)
			}
		}
		u := waysOf(s.Views, v.Profile, v.Client)
		head := viewVerdict(s, group[0], raw)
		head.Ways = []string{group[0].Way}
		var others []ClientVerdict
		for _, w := range group[1:] {
			c := viewVerdict(s, w, raw)
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
	facts := viewFacts(s, v, raw)
	if len(facts) == 0 {
		c.Verdict = loss.Works
		return c
	}
	c.Verdict = loss.Of(facts[0].severity)
	if c.Verdict == loss.Works {
		return c
	}
	for _, f := range facts {
		switch {
		case f.severity == loss.Info:
		case f.severity == facts[0].severity && len(c.Because) < 2:
			c.Because, c.Codes = append(c.Because, f.String()), append(c.Codes, f.code)
		default:
			c.More++
		}
	}
	return c
}

// viewFacts are the losses of view v, the worst first (then in the order
// of Docs), those of one code and loss over several tools counted as
// one.
func viewFacts(s Server, v View, raw []Finding) []fact {
	var facts []fact
	add := func(f fact) {
		i := slices.IndexFunc(facts, func(g fact) bool { return g.code == f.code && g.loss == f.loss && g.severity == f.severity })
		if i < 0 {
			facts = append(facts, f)
			return
		}
		if f.tools > 0 {
			facts[i].tools++
		}
	}
	for _, f := range raw {
		if !holds(f, v) {
			continue
		}
		n := 0
		if f.Tool != "" {
			n = 1
		}
		add(fact{severity: f.Severity, code: f.Code, loss: f.Loss, tools: n, tool: f.Tool})
	}
	for _, f := range ownFacts(s, v) {
		if !slices.ContainsFunc(facts, func(g fact) bool { return g.severity == loss.Broken }) || f.severity != loss.Broken {
			add(f)
		}
	}
	order := map[Code]int{}
	for i, d := range Docs {
		order[d.Code] = i
	}
	slices.SortStableFunc(facts, func(a, b fact) int {
		if r := a.severity.Rank() - b.severity.Rank(); r != 0 {
			return r
		}
		return order[a.code] - order[b.code]
	})
	return facts
}

// holds reports whether finding f (one holder, before merge) is about
// the client and way of view v.
func holds(f Finding, v View) bool {
	return slices.ContainsFunc(f.For, func(h Holder) bool {
		return h.Profile == v.Profile && h.Client == v.Client && slices.Contains(h.Ways, v.Way)
	})
}

// ownFacts are the losses a view shows that no finding about a client
// says: a client in no era (it gets nothing of the server), a client in
// an era whose tools/list failed, and a probing client that may lose the
// server to its probe.
func ownFacts(s Server, v View) []fact {
	var out []fact
	if v.Era == "" && !v.NotMeasured {
		why, _, _ := strings.Cut(v.Why, ";")
		out = append(out, fact{severity: loss.Broken, code: LegacyFailed, loss: "gets nothing of the server: " + why})
	}
	if e := eraOf(s, v.Era); v.Era != "" && e.ToolsError != "" && !(strings.Contains(e.ToolsError, "error -32601") && !slices.Contains(e.Capabilities, "tools")) {
		out = append(out, fact{severity: loss.Broken, code: ToolsFailed, loss: "gets no tools: tools/list fails"})
	}
	if v.Probes && v.Era == probe.Legacy && s.Target.Transport != probe.TransportHTTP {
		switch sv := s.Survival; {
		// Whether this client starts the server again after its probe is
		// not measured (Claude Code 2.1.285 did not, in 20 of 20 runs).
		case sv.Verdict == probe.SurvivalExit:
			out = append(out, fact{severity: loss.Degraded, code: ProbeExit, loss: "may lose the server: it exits on server/discover (" + NotMeasured + ")"})
		case sv.Fallback != nil && sv.Fallback.Outcome != probe.OutcomeOK:
			out = append(out, fact{severity: loss.Degraded, code: FallbackFailed, loss: "may lose the server: initialize fails after server/discover (" + NotMeasured + ")"})
		case sv.Verdict == probe.SurvivalSilent:
			out = append(out, fact{severity: loss.Degraded, code: ProbeSilent, loss: "may wait out its probe timeout: server/discover gets no answer"})
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
