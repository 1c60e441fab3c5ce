package assess

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/instrlab/instrlab/internal/probe"
	"github.com/instrlab/instrlab/internal/table"
	"github.com/instrlab/instrlab/internal/unit"
	"github.com/instrlab/instrlab/internal/untrusted"
)

// A Finding is one thing check reports about a server, with a one-line
// reason.
type Finding struct {
	// Level is "fail" (breaks a rule: check exits 1), "warn" or "info".
	Level string `json:"level"`
	Code  Code   `json:"code"`
	// Rule is the flag whose rule the finding breaks, if any.
	Rule    string `json:"rule,omitempty"`
	Message string `json:"message"`
	// For names the clients the finding holds for, when it is about what
	// clients do with the server; Message says what, For for whom.
	For []Holder `json:"for,omitempty"`

	// about tells this finding from another of its code for the same
	// clients (an era, a tool, a phrase): with them, what identifies it
	// from one check to the next (Fingerprint).
	about string
}

// A Holder is one client version a finding holds for, and the ways of
// running it (View.Way) it holds in.
type Holder struct {
	Client  string   `json:"client"`
	Profile string   `json:"profile"`
	Ways    []string `json:"ways,omitempty"`
	// Summary says the ways in words, as few as it can: "every arm but
	// seed", "every way measured"; "" when the client has one way.
	Summary string `json:"summary,omitempty"`
}

// Finding levels.
const (
	Fail = "fail"
	Warn = "warn"
	Info = "info"
)

// Failed reports whether any finding of any server breaks a rule.
func (r Report) Failed() bool {
	for _, s := range r.Servers {
		for _, f := range s.Findings {
			if f.Level == Fail {
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

func (l *findingList) add(code Code, format string, args ...any) {
	l.at(code.Doc().Level, code, "", format, args...)
}

// at adds a finding of code at level, told from others of its code by
// about.
func (l *findingList) at(level string, code Code, about, format string, args ...any) {
	*l = append(*l, Finding{Level: level, Code: code, Message: fmt.Sprintf(format, args...), about: about})
}

// of adds a finding about what the client of view v does.
func (l *findingList) of(v View, code Code, about, format string, args ...any) {
	*l = append(*l, Finding{Level: code.Doc().Level, Code: code, Message: fmt.Sprintf(format, args...), about: about,
		For: []Holder{{Client: v.Client, Profile: v.Profile, Ways: []string{v.Way}}}})
}

// rule adds the failure of the rule flag asks for.
func (l *findingList) rule(flag string, code Code, about, format string, args ...any) {
	*l = append(*l, Finding{Level: Fail, Code: code, Rule: flag, Message: fmt.Sprintf(format, args...), about: about})
}

func findings(s Server, o Options) []Finding {
	var l findingList
	r := s.Result
	for _, v := range r.Target.Unset {
		l.at(Warn, UnsetVar, v, "${%s} in the config is not set and has no default: Claude Code passes it to the server as written, \"${%s}\", and reports it as an error", v, v)
	}
	if !s.Reached {
		unreachable(&l, r, o)
		startup(&l, s, o)
		return merge(l, s.Views)
	}
	connection(&l, r, o)
	for _, e := range []probe.EraResult{r.Legacy, r.Modern} {
		for _, p := range e.Problems {
			l.at(Warn, Schema, string(e.Era)+" "+p, "%s reply: %s", e.Method, p)
		}
		tools(&l, e)
	}
	toolOrder(&l, r)
	invisible(&l, r)
	eras(&l, s)
	for _, v := range s.Views {
		cuts(&l, v)
		surfaceFindings(&l, v, o.Rules.MaxName)
		callFindings(&l, v)
		textsFindings(&l, v)
	}
	for _, c := range r.Legacy.Calls {
		if c.Outcome != probe.OutcomeOK {
			l.add(CallFailed, "-call %s: %s: %s", c.Tool, c.Outcome, c.Detail)
		}
	}
	for _, t := range s.Tools {
		msg := "cuts the description of tool %s: %s characters, cap %s"
		if !t.Measured {
			msg += " (the cap is from the client's documentation, not measured)"
		}
		l.of(View{Client: t.Client, Profile: t.Profile, Way: t.Way}, ToolTruncated, t.Tool, msg, t.Tool, table.Num(t.Chars), capWords(t.Cap, t.CapUnit))
	}
	failures(&l, s.Views)
	startup(&l, s, o)
	rules(&l, s, o.Rules)
	return merge(l, s.Views)
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
		l.add(Unreachable, "exits at start, whatever it is sent (initialize and server/discover, each on a fresh process): %s", detail)
	case r.Legacy.Outcome == probe.OutcomeSilent && r.Modern.Outcome == probe.OutcomeSilent:
		l.add(Unreachable, "no reply in either era within check's -timeout %v%s", o.Timeout, beyond(o))
	default:
		l.add(Unreachable, "no JSON-RPC reply in either era: %s", detail)
	}
}

// beyond names the profiles that wait longer than check did, so a
// silence is not taken for the client's verdict; "" when none does.
func beyond(o Options) string {
	var longer, unknown []string
	for _, p := range o.Profiles {
		w := startupWait(p, o.Getenv)
		switch {
		case w.d > o.Timeout:
			longer = append(longer, fmt.Sprintf("%s waits %v", p.Title(), w))
		case w.d == 0 && w.budget == nil && p.NotMeasured("timeout_ms"):
			unknown = append(unknown, p.Title())
		}
	}
	var out []string
	if len(longer) > 0 {
		out = append(out, fmt.Sprintf("not measured beyond %v, and %s; run with a longer -timeout to see what they get", o.Timeout, strings.Join(longer, ", ")))
	}
	if len(unknown) > 0 {
		out = append(out, fmt.Sprintf("how long %s waits is not measured", strings.Join(unknown, " and ")))
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
		l.at(Info, NoTools, string(e.Era), "%s era: no tools capability, and tools/list answers -32601", e.Era)
		return
	}
	l.at(Fail, ToolsFailed, string(e.Era), "%s era: %s: a client gets no tools from this server", e.Era, e.ToolsError)
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
		l.at(Warn, ToolOrder, "", "%s era: a second tools/list on the same connection listed %s, the first %s: the order is not deterministic, so a client that keeps the server's order changes its prompt's prefix when it lists again",
			e.Era, nameList(e.Relisted), nameList(first))
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
			level, n := Warn, 0
			var parts []string
			for _, f := range fs {
				if f.Kind == untrusted.KindTag {
					level = Fail
				}
				n += f.Count
				if len(parts) < 4 {
					parts = append(parts, f.String())
				}
			}
			if len(fs) > 4 {
				parts = append(parts, fmt.Sprintf("and %d more runs", len(fs)-4))
			}
			l.at(level, Invisible, p.where+" "+string(e.Era), "%s (%s era): %d invisible character(s) a reader does not see and a model reads: %s", p.where, e.Era, n, strings.Join(parts, "; "))
		}
	}
}

// connection reports what each era's first reply, or its absence, means.
func connection(l *findingList, r probe.Result, o Options) {
	stray := append(append([]string(nil), r.Legacy.Stray...), r.Modern.Stray...)
	if len(stray) > 0 {
		l.add(StdoutGarbage, "stdout carries lines that are not JSON-RPC, e.g. %q: clients may drop the connection; log to stderr", stray[0])
	}
	if !r.Legacy.OK() {
		switch {
		case r.Legacy.Error != nil && r.Legacy.Error.Code == -32022:
			l.add(LegacyRefused, "initialize refused with -32022: clients that do not probe with server/discover cannot use this server")
		default:
			l.add(LegacyFailed, "initialize: %s", r.Legacy.Detail)
		}
	}
	sv := r.Survival
	switch sv.Verdict {
	case probe.SurvivalMethodNotFound:
		l.add(ProbeOK, "legacy server: answers server/discover with -32601 in %v, so probing clients fall back at once", ms(sv.Wait.D()))
	case probe.SurvivalOtherError:
		l.add(ProbeOtherError, "server/discover: %s; clients fall back to initialize on any error, though -32601 is the usual answer", sv.Detail)
	case probe.SurvivalExit:
		if r.Target.Transport == probe.TransportHTTP {
			l.add(ProbeExit, "server/discover brings the server down (%s): every client that probes (Claude Code 2.1.285 does for HTTP servers, by its documentation) loses it; answer -32601 instead", sv.Detail)
			break
		}
		l.add(ProbeExit, "exits on server/discover (%s): a client that probes on the same process (Claude Code 2.1.285 did in 20 of 20 runs) loses the server; answer -32601 instead", sv.Detail)
	case probe.SurvivalSilent:
		l.add(ProbeSilent, "no answer to server/discover within check's -timeout %v (not measured beyond it): a probing client waits out its whole probe timeout, then falls back to initialize", o.Timeout)
	case probe.SurvivalInvalid:
		l.add(ProbeInvalid, "server/discover: %s", sv.Detail)
	}
	if f := sv.Fallback; f != nil && f.Outcome != probe.OutcomeOK {
		l.add(FallbackFailed, "initialize after the server/discover probe, on the same process, as probing clients send it: %s", f.Detail)
	}
}

func eras(l *findingList, s Server) {
	for _, t := range s.Texts {
		if !t.Present {
			l.at(Info, NoInstructions, string(t.Era), "%s era: the reply has no instructions field", t.Era)
		}
	}
	if s.SameEras != nil && !*s.SameEras {
		msg := "initialize and server/discover return different instructions (%s and %s characters): a client that gets a DiscoverResult never sends initialize, so it sees only the server/discover text"
		l.add(ErasDiffer, msg, table.Num(chars(s.Legacy)), table.Num(chars(s.Modern)))
	}
}

func chars(e probe.EraResult) int { return utf8.RuneCountInString(text(e)) }

func cuts(l *findingList, v View) {
	switch v.CapSource {
	case "ignored":
		l.of(v, SettingIgnored, v.Setting, "%s is not a positive whole number in plain digits, so the client ignores it and keeps the default cap of %s", v.Setting, table.Num(v.Cap))
	case "set":
		l.of(v, Setting, v.Setting, "cap %s from %s", table.Num(v.Cap), v.Setting)
	}
	if v.Unused && v.Present {
		l.of(v, Unused, "", "puts none of the instructions in the model's context: all %s characters lost (measured)", table.Num(v.Chars))
	}
	if !v.Truncated {
		return
	}
	kept := fmt.Sprintf("keeps %s of %s characters (%s era, cap %s)", table.Num(v.KeptChars), table.Num(v.Chars), v.Era, capWords(v.Cap, v.CapUnit))
	if v.Loss.Cut == nil || v.Loss.Cut.Start == 0 && len(v.Loss.Whole) == 0 {
		l.of(v, Truncated, string(v.Era), "%s; the last %s are lost, silently", kept, table.Num(v.LostChars))
	} else {
		lost := []string{fmt.Sprintf("%q loses %s of %s characters", v.Loss.Cut.Title, table.Num(v.Loss.CutLost), table.Num(v.Loss.Cut.Chars()))}
		if n := len(v.Loss.Whole); n > 0 {
			lost = append(lost, fmt.Sprintf("%d section(s) lost whole", n))
		}
		l.of(v, Truncated, string(v.Era), "%s; %s lost, silently: %s", kept, table.Num(v.LostChars), strings.Join(lost, "; "))
	}
	if n := nonBMP(v.kept); n > 0 {
		l.of(v, NonBMP, string(v.Era), "%d character(s) before the cut are outside the Basic Multilingual Plane (emoji?); if the client counts UTF-16 units it cuts earlier (not measured)", n)
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
			l.of(v, EndsSession, f.Method, "%s fails, and the client ends its whole session on it, with every other server (measured): answer %s", f.Method, f.Method)
		case f.Effect == EffectDrops:
			l.of(v, DropsServer, f.Method, "%s fails, and the client drops the whole server: its instructions do not reach the model either (measured)", f.Method)
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
// measured wait budget, its documented wait, or "not measured".
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
			if msg == "" {
				msg = "how long the client waits for a server is " + NotMeasured
			}
			l.of(v, StartupSlow, "silent", "no reply within check's -timeout %v: %s", o.Timeout, msg)
		case worst > 0 && (w.d > 0 && worst > w.d/2 || w.budget != nil && w.budget.Below):
			l.of(v, StartupSlow, "", "%s", w.inTime(worst, o.Timeout))
		}
	}
}

func rules(l *findingList, s Server, r Rules) {
	for _, t := range s.Texts {
		if r.MaxChars > 0 && t.Chars > r.MaxChars {
			l.rule("-max-chars", MaxChars, string(t.Era), "%s era: instructions are %s characters, more than -max-chars %s", t.Era, table.Num(t.Chars), table.Num(r.MaxChars))
		}
		if r.MaxTokens > 0 && t.Tokens > r.MaxTokens {
			l.rule("-max-tokens", MaxTokens, string(t.Era), "%s era: instructions are about %s tokens (estimate), more than -max-tokens %s", t.Era, table.Num(t.Tokens), table.Num(r.MaxTokens))
		}
	}
	for _, phrase := range r.Require {
		require(l, s, phrase)
	}
	maxNameRule(l, s, r.MaxName)
	if r.SameEras && s.SameEras != nil && !*s.SameEras {
		l.rule("-require-same-eras", ErasDiffer, "", "initialize and server/discover return different instructions")
	}
	if r.MaxStartup > 0 && s.Startup.Worst() > r.MaxStartup {
		l.rule("-max-startup", MaxStartup, "", "first reply after %v, more than -max-startup %v", ms(s.Startup.Worst()), r.MaxStartup)
	}
}

// require checks that phrase is in every era's text and in what every
// profile keeps.
func require(l *findingList, s Server, phrase string) {
	for _, e := range []probe.EraResult{s.Legacy, s.Modern} {
		if e.OK() && !strings.Contains(text(e), phrase) {
			l.rule("-require", Require, phrase+" "+string(e.Era), "%q is not in the %s era's instructions", phrase, e.Era)
		}
	}
	for _, v := range s.Views {
		if v.Era == "" || !v.Present || !strings.Contains(text(eraOf(s, v.Era)), phrase) {
			continue // reported above, or nothing to keep
		}
		switch {
		case v.Unused:
			l.of(v, Require, phrase+" unused", "%q never reaches the model: the client puts none of the text in its context", phrase)
		case !strings.Contains(v.kept, phrase):
			l.of(v, Require, phrase+" "+string(v.Era), "%q is cut off (%s era, cap %s)", phrase, v.Era, capWords(v.Cap, v.CapUnit))
		default:
			continue
		}
		(*l)[len(*l)-1].Level, (*l)[len(*l)-1].Rule = Fail, "-require"
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
