package assess

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/instrlab/instrlab/internal/loss"
	"github.com/instrlab/instrlab/internal/probe"
	"github.com/instrlab/instrlab/internal/table"
	"github.com/instrlab/instrlab/internal/unit"
	"github.com/instrlab/instrlab/internal/untrusted"
)

// A Finding is one thing check reports about a server, with a one-line
// reason.
type Finding struct {
	// Severity is what the model loses by it (Severity).
	Severity loss.Severity `json:"severity"`
	// Level is the finding for readers of schema v1: "fail" when it
	// fails, "warn" when broken or degraded, else "info".
	Level string `json:"level"`
	// Fails is set when the finding makes check exit 1 (Doc.Fails).
	Fails bool `json:"fails,omitempty"`
	Code  Code `json:"code"`
	// Rule is the flag whose rule the finding breaks, if any.
	Rule string `json:"rule,omitempty"`
	// Message says what was found; of a finding about a tool, after
	// "tool NAME: ".
	Message string `json:"message"`
	// Tool is the server's tool the finding is about, "" for none.
	Tool string `json:"tool,omitempty"`
	// Loss is what the model loses, in a few words (after "tool NAME: "
	// for a finding about a tool): what verdicts and problems say.
	Loss string `json:"loss,omitempty"`
	// Fix is what the author can change, with the finding's numbers; ""
	// when its code's says it (Doc.Fix).
	Fix string `json:"fix,omitempty"`
	// For names the clients the finding holds for, when it is about what
	// clients do with the server; Message says what, For for whom.
	For []Holder `json:"for,omitempty"`

	// about tells this finding from another of its code for the same
	// clients (an era, a tool, a phrase): with them, what identifies it
	// from one check to the next (Fingerprint).
	about string
	// kind tells the problems of one code apart (a keyword, a
	// direction): findings of one code and kind are one problem.
	kind string
	// worst orders the findings of one problem: the smallest is the
	// worst (the fewest characters kept).
	worst int
}

// level is the finding's level for schema v1.
func (f Finding) level() string {
	switch {
	case f.Fails:
		return "fail"
	case f.Severity == loss.Info:
		return "info"
	}
	return "warn"
}

// TheFix is what the author can change: the finding's own fix, else its
// code's.
func (f Finding) TheFix() string {
	if f.Fix != "" {
		return f.Fix
	}
	return f.Code.Doc().Fix
}

// lose sets what the model loses, in a few words.
func (f *Finding) lose(format string, args ...any) *Finding {
	f.Loss = fmt.Sprintf(format, args...)
	return f
}

// fix sets the fix with the finding's numbers.
func (f *Finding) fix(format string, args ...any) *Finding {
	f.Fix = fmt.Sprintf(format, args...)
	return f
}

// at sets the severity, when a finding is worse or milder than its code.
func (f *Finding) at(s loss.Severity) *Finding {
	f.Severity = s
	return f
}

// tool says the finding is about tool t: its message and loss follow
// "tool t: ".
func (f *Finding) tool(t string) *Finding {
	f.Tool = t
	return f
}

// kinded sets what tells the finding's problem from others of its code.
func (f *Finding) kinded(k string) *Finding {
	f.kind = k
	return f
}

// ranked sets how bad the finding is within its problem: the smallest
// is the worst.
func (f *Finding) ranked(n int) *Finding {
	f.worst = n
	return f
}

// A Holder is one client version a finding holds for, and the ways of
// running it (View.Way) it holds in.
type Holder struct {
	Client  string   `json:"title"`
	Profile string   `json:"client"`
	Ways    []string `json:"arms,omitempty"`
	// Summary says the ways in words, as few as it can: "every arm but
	// seed", "every way measured"; "" when the client has one way.
	Summary string `json:"arms_summary,omitempty"`
}

// Failed reports whether any finding of any server makes check fail.
func (r Report) Failed() bool {
	for _, s := range r.Servers {
		for _, f := range s.Findings {
			if f.Fails {
				return true
			}
		}
	}
	return false
}

// Unreached lists the servers neither era reached.
func (r Report) Unreached() []string {
	var names []string
	for _, s := range r.Servers {
		if !s.Reached {
			names = append(names, s.Target.Name)
		}
	}
	return names
}

type findingList []Finding

// add adds a finding about the server, of code, told from others of its
// code by about.
func (l *findingList) add(code Code, about, format string, args ...any) *Finding {
	d := code.Doc()
	*l = append(*l, Finding{Severity: d.Severity, Fails: d.Fails == "always", Code: code, Message: fmt.Sprintf(format, args...), about: about})
	return &(*l)[len(*l)-1]
}

// of adds a finding about what the client of view v does.
func (l *findingList) of(v View, code Code, about, format string, args ...any) *Finding {
	f := l.add(code, about, format, args...)
	f.For = []Holder{{Client: v.Client, Profile: v.Profile, Ways: []string{v.Way}}}
	return f
}

// rule adds the failure of the rule flag asks for.
func (l *findingList) rule(flag string, code Code, about, format string, args ...any) *Finding {
	f := l.add(code, about, format, args...)
	f.Fails, f.Rule = true, flag
	return f
}

func findings(s Server, o Options) []Finding {
	var l findingList
	r := s.Result
	for _, v := range r.Target.Unset {
		l.add(UnsetVar, v, "${%s} in the config is not set and has no default: Claude Code passes it to the server as written, \"${%s}\", and reports it as an error", v, v).
			lose("the server gets ${%s} as written", v).fix("set %s, or give it a default: ${%s:-value}", v, v)
	}
	if !s.Reached {
		unreachable(&l, r, o)
		startup(&l, s, o)
		return l
	}
	connection(&l, r, o)
	for _, e := range []probe.EraResult{r.Legacy, r.Modern} {
		for _, p := range e.Problems {
			l.add(Schema, string(e.Era)+" "+p, "%s reply: %s", e.Method, p).lose("the %s reply departs from its schema", e.Method)
		}
		tools(&l, e)
	}
	toolOrder(&l, r)
	invisible(&l, r)
	eras(&l, s, o.Rules.SameEras)
	for _, v := range s.Views {
		cuts(&l, v)
		surfaceFindings(&l, v, o.Rules.MaxName)
		callFindings(&l, v)
		callTimeFindings(&l, v)
		textsFindings(&l, v)
		addedToolsFindings(&l, v)
		taskFindings(&l, v)
		turnFindings(&l, v)
	}
	for _, c := range r.Calls() {
		if c.Outcome != probe.OutcomeOK {
			l.add(CallFailed, c.Tool, "-call: %s: %s", c.Outcome, c.Detail).tool(c.Tool).lose("returned no result to -call (%s)", c.Outcome)
		}
	}
	for _, t := range s.Tools {
		if t.FirstLine {
			f := l.of(View{Client: t.Client, Profile: t.Profile, Way: t.Way}, ToolTruncated, t.Tool,
				"the client keeps only its description's first line: %s of %s characters", table.Num(t.KeptChars), table.Num(t.Chars)).
				tool(t.Tool).lose("description: its first line only").ranked(t.KeptChars).kinded("first line")
			if t.KeptChars == 0 {
				f.fix("start the description with its text, not a line break")
			} else {
				f.fix("put what matters in its first line")
			}
			continue
		}
		msg := "the client cuts its description: %s characters, cap %s"
		if !t.Measured {
			msg += " (the cap is from the client's documentation, not measured)"
		}
		l.of(View{Client: t.Client, Profile: t.Profile, Way: t.Way}, ToolTruncated, t.Tool, msg, table.Num(t.Chars), capWords(t.Cap, t.CapUnit)).
			tool(t.Tool).lose("description cut at %s", capWords(t.Cap, t.CapUnit)).ranked(t.Cap).
			fix("put what matters in its first %s %s", table.Num(t.Cap), unitPlural(t.CapUnit))
	}
	failures(&l, s.Views)
	startup(&l, s, o)
	rules(&l, s, o.Rules)
	return l
}

// unreachable says why neither era got a reply, and, when check gave up
// sooner than a client would, that the rest was not measured.
func unreachable(l *findingList, r probe.Result, o Options) {
	detail := r.Legacy.Detail
	if detail == "" {
		detail = r.Modern.Detail
	}
	switch {
	case r.Survival.Verdict == probe.SurvivalExitAtStart:
		l.add(Unreachable, "", "exits at start, whatever it is sent (initialize and server/discover, each on a fresh process): %s", detail).lose("the server exits at start")
	case r.Legacy.Outcome == probe.OutcomeSilent && r.Modern.Outcome == probe.OutcomeSilent:
		l.add(Unreachable, "", "no reply in either era within check's -timeout %v%s", o.Timeout, beyond(o)).lose("no reply within %v", o.Timeout)
	default:
		l.add(Unreachable, "", "no JSON-RPC reply in either era: %s", detail).lose("no JSON-RPC reply")
	}
}

// beyond names the client versions that wait longer than check did, so
// a silence is not taken for the client's verdict, and counts those
// whose wait is not measured; "" when none. A client version is named
// once, whichever of its ways waits longer.
func beyond(o Options) string {
	var longer, unknown []string
	for _, p := range o.Profiles {
		w := startupWait(p, o.Getenv)
		switch {
		case w.d > o.Timeout:
			if !slices.Contains(longer, p.Named()) {
				longer = append(longer, p.Named())
			}
		case w.d == 0 && w.budget == nil && p.NotMeasured("timeout_ms"):
			if !slices.Contains(unknown, p.Named()) {
				unknown = append(unknown, p.Named())
			}
		}
	}
	var out []string
	if len(longer) > 0 {
		out = append(out, fmt.Sprintf("not measured beyond %v, and %s wait longer (check -v says how long): run with a longer -timeout to see what they get", o.Timeout, strings.Join(longer, ", ")))
	}
	if len(unknown) > 0 {
		out = append(out, fmt.Sprintf("how long %s wait is not measured", strings.Join(unknown, ", ")))
	}
	if len(out) == 0 {
		return ""
	}
	return ": " + strings.Join(out, "; ")
}

// tools reports a tools/list that failed: an error, not "0 tools",
// unless the server declared no tools and said so with -32601.
func tools(l *findingList, e probe.EraResult) {
	if e.ToolsError == "" {
		return
	}
	if !slices.Contains(e.Capabilities, "tools") && strings.Contains(e.ToolsError, "error -32601") {
		l.add(NoTools, string(e.Era), "%s era: no tools capability, and tools/list answers -32601", e.Era).lose("no tools")
		return
	}
	l.add(ToolsFailed, string(e.Era), "%s era: %s: a client gets no tools from this server", e.Era, e.ToolsError).lose("tools/list fails (%s era): no client gets the tools", e.Era)
}

// toolOrder reports a server whose second tools/list on one connection
// listed other tools or the same in another order, once, for the first
// era that shows it.
func toolOrder(l *findingList, r probe.Result) {
	for _, e := range []probe.EraResult{r.Legacy, r.Modern} {
		if e.Relisted == nil || !e.OK() {
			continue
		}
		first := make([]string, len(e.Tools))
		for i, t := range e.Tools {
			first[i] = t.Name
		}
		l.add(ToolOrder, "", "%s era: a second tools/list on the same connection listed %s, the first %s: the order is not deterministic, so a client that keeps the server's order changes its prompt's prefix when it lists again",
			e.Era, nameList(e.Relisted), nameList(first)).lose("tools/list changes its order")
		return
	}
}

// nameList quotes the first five names of a list and counts the rest.
func nameList(names []string) string {
	const shown = 5
	var parts []string
	for i, n := range names {
		if i == shown {
			parts = append(parts, fmt.Sprintf("and %d more", len(names)-shown))
			break
		}
		parts = append(parts, strconv.Quote(n))
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// invisible reports invisible characters in what the model is shown:
// instructions, tool names and descriptions, the server's name. Tag
// characters (invisible ASCII) fail; the others warn, since zero-width
// joiners and bidi marks have honest uses too.
func invisible(l *findingList, r probe.Result) {
	type place struct{ where, text string }
	seen := map[string]bool{}
	for _, e := range []probe.EraResult{r.Legacy, r.Modern} {
		if !e.OK() {
			continue
		}
		places := []place{{"instructions", text(e)}}
		if e.ServerInfo != nil {
			places = append(places, place{"server name", e.ServerInfo.Name})
		}
		for _, t := range e.Tools {
			places = append(places, place{"tool " + strconv.Quote(t.Name) + " name", t.Name}, place{"tool " + strconv.Quote(t.Name) + " description", t.Description})
		}
		for _, p := range places {
			fs := untrusted.Invisible(p.text)
			if len(fs) == 0 || seen[p.where+"\x00"+p.text] {
				continue
			}
			seen[p.where+"\x00"+p.text] = true
			// Tags first: they spell hidden text.
			slices.SortStableFunc(fs, func(a, b untrusted.Finding) int {
				return boolInt(b.Kind == untrusted.KindTag) - boolInt(a.Kind == untrusted.KindTag)
			})
			fails, n := false, 0
			var parts []string
			for _, f := range fs {
				if f.Kind == untrusted.KindTag {
					fails = true
				}
				n += f.Count
				if len(parts) < 4 {
					parts = append(parts, f.String())
				}
			}
			if len(fs) > 4 {
				parts = append(parts, fmt.Sprintf("and %d more runs", len(fs)-4))
			}
			f := l.add(Invisible, p.where+" "+string(e.Era), "%s (%s era): %d invisible character(s) a reader does not see and a model reads: %s", p.where, e.Era, n, strings.Join(parts, "; ")).
				lose("%s hold invisible characters", p.where)
			f.Fails = fails
		}
	}
}

// connection reports what each era's first reply, or its absence, means.
func connection(l *findingList, r probe.Result, o Options) {
	stray := append(append([]string(nil), r.Legacy.Stray...), r.Modern.Stray...)
	if len(stray) > 0 {
		l.add(StdoutGarbage, "", "stdout carries lines that are not JSON-RPC, e.g. %q: clients may drop the connection", stray[0]).lose("stdout carries lines that are not JSON-RPC")
	}
	if !r.Legacy.OK() {
		switch {
		case r.Legacy.Error != nil && r.Legacy.Error.Code == -32022:
			l.add(LegacyRefused, "", "initialize refused with -32022: clients that do not probe with server/discover cannot use this server").lose("initialize is refused")
		default:
			l.add(LegacyFailed, "", "initialize: %s", r.Legacy.Detail).lose("initialize fails")
		}
	}
	sv := r.Survival
	switch sv.Verdict {
	case probe.SurvivalMethodNotFound:
		l.add(ProbeOK, "", "legacy server: answers server/discover with -32601 in %v, so probing clients fall back at once", ms(sv.Wait.D())).lose("server/discover answers -32601")
	case probe.SurvivalOtherError:
		l.add(ProbeOtherError, "", "server/discover: %s; clients fall back to initialize on any error, though -32601 is the usual answer", sv.Detail).lose("server/discover answers another error")
	case probe.SurvivalExit:
		if r.Target.Transport == probe.TransportHTTP {
			l.add(ProbeExit, "", "server/discover brings the server down (%s): every client that probes (Claude Code 2.1.285 does for HTTP servers, by its documentation) loses it", sv.Detail).lose("server/discover brings the server down")
			break
		}
		l.add(ProbeExit, "", "exits on server/discover (%s): a client that probes on the same process (Claude Code 2.1.285 did in 20 of 20 runs) loses the server", sv.Detail).lose("the server exits on server/discover")
	case probe.SurvivalSilent:
		l.add(ProbeSilent, "", "no answer to server/discover within check's -timeout %v (not measured beyond it): a probing client waits out its whole probe timeout, then falls back to initialize", o.Timeout).lose("server/discover gets no answer")
	case probe.SurvivalInvalid:
		l.add(ProbeInvalid, "", "server/discover: %s", sv.Detail).lose("server/discover gets a reply that is not JSON-RPC")
	}
	if f := sv.Fallback; f != nil && f.Outcome != probe.OutcomeOK {
		l.add(FallbackFailed, "", "initialize after the server/discover probe, on the same process, as probing clients send it: %s", f.Detail).lose("initialize fails after server/discover")
	}
}

// erasDiffer is the message of eras-differ, with the two lengths.
const erasDiffer = "initialize and server/discover return different instructions (%s and %s characters): a client that gets a DiscoverResult never sends initialize, so it sees only the server/discover text"

// eras reports an era without instructions, and eras that send
// different instructions (unless -require-same-eras makes that a rule's
// failure, which rules reports).
func eras(l *findingList, s Server, sameErasRule bool) {
	for _, t := range s.Texts {
		if !t.Present {
			l.add(NoInstructions, string(t.Era), "%s era: the reply has no instructions field", t.Era).lose("no instructions (%s era)", t.Era)
		}
	}
	if s.SameEras != nil && !*s.SameEras && !sameErasRule {
		l.add(ErasDiffer, "", erasDiffer, table.Num(chars(s.Legacy)), table.Num(chars(s.Modern))).lose("the eras send different instructions")
	}
}

func chars(e probe.EraResult) int { return utf8.RuneCountInString(text(e)) }

func cuts(l *findingList, v View) {
	switch v.CapSource {
	case "ignored":
		l.of(v, SettingIgnored, v.Setting, "%s is not a positive whole number in plain digits, so the client ignores it and keeps the default cap of %s", v.Setting, table.Num(v.Cap)).
			lose("ignores %s", v.Setting)
	case "set":
		l.of(v, Setting, v.Setting, "cap %s from %s", table.Num(v.Cap), v.Setting).lose("cap %s from %s", table.Num(v.Cap), v.Setting)
	}
	if v.NoTools {
		l.of(v, ToolsUnoffered, "", "offers the model none of the server's tools in a turn's first request: neither defined nor named (measured)").
			lose("gets none of the tools")
	}
	if v.Unused && v.Present {
		l.of(v, Unused, "", "puts none of the instructions in the model's context: all %s characters lost (measured)", table.Num(v.Chars)).
			lose("gets none of the instructions")
	}
	if !v.Truncated {
		return
	}
	kept := fmt.Sprintf("keeps %s of %s characters (%s era, cap %s)", table.Num(v.KeptChars), table.Num(v.Chars), v.Era, capWords(v.Cap, v.CapUnit))
	var f *Finding
	if v.Loss.Cut == nil || v.Loss.Cut.Start == 0 && len(v.Loss.Whole) == 0 {
		f = l.of(v, Truncated, string(v.Era), "%s; the last %s are lost, silently", kept, table.Num(v.LostChars))
	} else {
		lost := []string{fmt.Sprintf("%q loses %s of %s characters", v.Loss.Cut.Title, table.Num(v.Loss.CutLost), table.Num(v.Loss.Cut.Chars()))}
		if n := len(v.Loss.Whole); n > 0 {
			lost = append(lost, fmt.Sprintf("%d section(s) lost whole", n))
		}
		f = l.of(v, Truncated, string(v.Era), "%s; %s lost, silently: %s", kept, table.Num(v.LostChars), strings.Join(lost, "; "))
	}
	f.lose("keeps %s of %s characters of instructions", table.Num(v.KeptChars), table.Num(v.Chars)).ranked(v.KeptChars).
		fix("put what matters in the first %s characters", table.Num(v.KeptChars))
	if n := nonBMP(v.kept); n > 0 {
		l.of(v, NonBMP, string(v.Era), "%d character(s) before the cut are outside the Basic Multilingual Plane (emoji?); if the client counts UTF-16 units it cuts earlier (not measured)", n).
			lose("may cut earlier: %d characters outside the BMP", n)
	}
}

// capWords is a cap with its unit when it is not code points, which
// "characters" names: "2,048", "2,048 UTF-16 units".
func capWords(cap int, u string) string {
	if x, err := unit.Parse(u); err == nil && x != unit.CodePoint {
		return table.Num(cap) + " " + x.Plural()
	}
	return table.Num(cap)
}

// failures reports the views whose client ends its session on a failed
// method (failing: a client breaks on it), and those whose client drops
// the server; merge names the clients of each.
func failures(l *findingList, vs []View) {
	for _, v := range vs {
		switch f := v.Failure; {
		case f == nil:
		case f.Effect == EffectExits:
			l.of(v, EndsSession, f.Method, "%s fails, and the client ends its whole session on it, with every other server (measured): answer %s", f.Method, f.Method).
				lose("ends its session: %s fails", f.Method).fix("answer %s", f.Method)
		case f.Effect == EffectDrops:
			l.of(v, DropsServer, f.Method, "%s fails, and the client drops the whole server: its instructions do not reach the model either (measured)", f.Method).
				lose("drops the server: %s fails", f.Method).fix("answer %s", f.Method)
		}
	}
}

func nonBMP(s string) int {
	n := 0
	for _, r := range s {
		if r > 0xFFFF {
			n++
		}
	}
	return n
}

// startup says, per client, whether the server makes it in time: when
// its first reply took more than half of the client's wait, or when the
// client ends up in no era and an era was silent for all of check's
// -timeout (a server slower than check waited), from the profile's
// measured wait budget, its documented wait, or "not measured". The
// severity is from the distribution of the first replies: broken when
// the client drops the server (the median past the wait: View.Late, or
// silence past a wait shorter than check's), degraded when some replies
// land where the client gives up (a race), info when all are within it.
func startup(l *findingList, s Server, o Options) {
	worst := s.Startup.Worst()
	silent := s.Legacy.Outcome == probe.OutcomeSilent || s.Modern.Outcome == probe.OutcomeSilent
	for i, p := range o.Profiles {
		if i >= len(s.Views) {
			break
		}
		v, w := s.Views[i], startupWait(p, o.Getenv)
		switch {
		case v.NotMeasured:
			// Nothing of the client over HTTP is measured.
		case silent && v.Era == "":
			msg := w.inTime(0, o.Timeout)
			f := l.of(v, StartupSlow, "silent", "no reply within check's -timeout %v: %s", o.Timeout, msg)
			switch {
			case msg == "":
				f.Message += "how long the client waits for a server is " + NotMeasured
				f.at(loss.Info).lose("no reply within %v; how long it waits is %s", o.Timeout, NotMeasured)
			case w.tooLateFor(0, o.Timeout):
				f.at(loss.Broken).lose("never gets the server: no reply within %v, it waits %s", o.Timeout, w.span())
			default:
				f.at(loss.Info).lose("no reply within %v, and it waits %s: %s beyond", o.Timeout, w.span(), NotMeasured)
			}
		case v.Late != "":
			st := s.Startup.Legacy
			if v.Era == probe.Modern {
				st = s.Startup.Modern
			}
			if st.N == 0 {
				st = s.Startup.Modern
			}
			f := l.of(v, StartupSlow, "", "%s%s", w.inTime(worst, o.Timeout), judged(s.Startup)).at(loss.Broken).
				lose("drops the server: up after %s%s, it waits %s", sec(st.Median.D()), atLoad(s.Startup), w.span()).
				fix("answer initialize within %s (now %s), before slow setup", sec(w.d), sec(st.Median.D())).ranked(int(w.d.Milliseconds()) + 1)
			if loaded(s.Startup) {
				f.Loss += " (may be in time on a quiet machine)"
			}
		case worst > 0 && (w.d > 0 && worst > w.d/2 || w.budget != nil && w.budget.Below):
			f := l.of(v, StartupSlow, "", "%s%s", w.inTime(worst, o.Timeout), judged(s.Startup))
			switch {
			case w.budget != nil && w.budget.Above || worst <= w.d:
				f.at(loss.Info).lose("up after %s at most%s, within its wait of %s", sec(worst), atLoad(s.Startup), w.span())
			default:
				f.lose("a race: up after %s at most%s, it waits %s", sec(worst), atLoad(s.Startup), w.span()).
					fix("answer initialize within %s (now up to %s), before slow setup", sec(w.d), sec(worst)).ranked(int(w.d.Milliseconds()) + 1)
			}
		}
	}
}

// loaded reports whether the machine ran at least one task per CPU when
// the server was timed: its start-ups are slower than on a quiet one.
func loaded(st probe.Startup) bool { return st.CPUs > 0 && st.Load >= float64(st.CPUs) }

// atLoad is the load a start-up was timed at, for a loss: " at load 6.0";
// "" when not known.
func atLoad(st probe.Startup) string {
	if st.Load == 0 {
		return ""
	}
	return " at load " + strconv.FormatFloat(st.Load, 'f', 1, 64)
}

// judged says, for a start-up finding's message, the load the start-up
// was timed at and what it means: "; judged at load 6.0 on 2 CPUs: a
// quieter machine may start the server sooner".
func judged(st probe.Startup) string {
	switch {
	case st.Load == 0:
		return "; the machine's load is " + NotMeasured
	case loaded(st):
		return fmt.Sprintf("; judged at load %.1f on %d CPUs: a quieter machine may start the server sooner, and the verdict differ", st.Load, st.CPUs)
	}
	return fmt.Sprintf("; judged at load %.1f on %d CPUs: a loaded machine (a busy CI runner) may start it later", st.Load, st.CPUs)
}

func rules(l *findingList, s Server, r Rules) {
	for _, t := range s.Texts {
		if r.MaxChars > 0 && t.Chars > r.MaxChars {
			l.rule("-max-chars", MaxChars, string(t.Era), "%s era: instructions are %s characters, more than -max-chars %s", t.Era, table.Num(t.Chars), table.Num(r.MaxChars)).
				lose("instructions over -max-chars")
		}
		if r.MaxTokens > 0 && t.Tokens > r.MaxTokens {
			l.rule("-max-tokens", MaxTokens, string(t.Era), "%s era: instructions are about %s tokens (estimate), more than -max-tokens %s", t.Era, table.Num(t.Tokens), table.Num(r.MaxTokens)).
				lose("instructions over -max-tokens")
		}
	}
	for _, phrase := range r.Require {
		require(l, s, phrase)
	}
	maxNameRule(l, s, r.MaxName)
	if r.SameEras && s.SameEras != nil && !*s.SameEras {
		l.rule("-require-same-eras", ErasDiffer, "", erasDiffer, table.Num(chars(s.Legacy)), table.Num(chars(s.Modern))).lose("the eras send different instructions")
	}
	if r.MaxStartup > 0 && s.Startup.Worst() > r.MaxStartup {
		l.rule("-max-startup", MaxStartup, "", "first reply after %v, more than -max-startup %v", ms(s.Startup.Worst()), r.MaxStartup).lose("start-up over -max-startup")
	}
}

// require checks that phrase is in every era's text and in what every
// profile keeps.
func require(l *findingList, s Server, phrase string) {
	for _, e := range []probe.EraResult{s.Legacy, s.Modern} {
		if e.OK() && !strings.Contains(text(e), phrase) {
			l.rule("-require", Require, phrase+" "+string(e.Era), "%q is not in the %s era's instructions", phrase, e.Era).lose("%q is not in the instructions", phrase)
		}
	}
	for _, v := range s.Views {
		if v.Era == "" || !v.Present || !strings.Contains(text(eraOf(s, v.Era)), phrase) {
			continue // reported above, or nothing to keep
		}
		switch {
		case v.Unused:
			l.of(v, Require, phrase+" unused", "%q never reaches the model: the client puts none of the text in its context", phrase).
				lose("%q never reaches the model", phrase)
		case !strings.Contains(v.kept, phrase):
			l.of(v, Require, phrase+" "+string(v.Era), "%q is cut off (%s era, cap %s)", phrase, v.Era, capWords(v.Cap, v.CapUnit)).
				lose("%q is cut off", phrase).fix("move %q into the first %s characters", phrase, table.Num(v.KeptChars))
		default:
			continue
		}
		(*l)[len(*l)-1].Fails, (*l)[len(*l)-1].Rule = true, "-require"
	}
}

func eraOf(s Server, e probe.Era) probe.EraResult {
	if e == probe.Modern {
		return s.Modern
	}
	return s.Legacy
}

// ms rounds t for messages.
func ms(t time.Duration) time.Duration {
	if t > time.Second {
		return t.Round(10 * time.Millisecond)
	}
	return t.Round(100 * time.Microsecond)
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
