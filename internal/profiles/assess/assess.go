package assess

import (
	"errors"
	"fmt"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/instrlab/instrlab/internal/fingerprint"
	"github.com/instrlab/instrlab/internal/probe"
	"github.com/instrlab/instrlab/internal/profiles"
	"github.com/instrlab/instrlab/internal/tokens"
)

// Options say what to assess against.
type Options struct {
	Profiles []profiles.Profile
	// Getenv looks up the client's environment, for cap settings; nil
	// means none is set.
	Getenv func(string) (string, bool)
	Rules  Rules
	// Timeout is the probe's timeout, named in findings about silence.
	Timeout time.Duration
	// Selection is how the profiles were asked for (check's -profile),
	// "" for every built-in one.
	Selection string
}

// Rules are the limits a user sets for CI; a broken rule is a failing
// finding.
type Rules struct {
	MaxChars   int           // -max-chars: instructions of any era longer than this
	MaxTokens  int           // -max-tokens: estimated tokens of any era's instructions
	Require    []string      // -require: phrases every profile's cut and every era must keep
	SameEras   bool          // -require-same-eras: both eras send the same instructions
	MaxStartup time.Duration // -max-startup: slowest first reply
	MaxName    int           // -max-name: a tool's name, as any client names it
}

// Validate rejects rules a command line set out of range, naming the
// flag.
func (r Rules) Validate() error {
	if r.MaxChars < 0 || r.MaxTokens < 0 || r.MaxStartup < 0 || r.MaxName < 0 {
		return errors.New("-max-chars, -max-tokens, -max-startup and -max-name must not be negative")
	}
	if slices.Contains(r.Require, "") {
		return errors.New("-require needs a non-empty phrase")
	}
	return nil
}

// A Report is the assessment of every server checked.
type Report struct {
	Tokenizer string       `json:"tokenizer"`
	Profiles  []ProfileRef `json:"profiles"`
	// Selection is how the profiles were asked for (Options.Selection).
	Selection string   `json:"profile_selection,omitempty"`
	Servers   []Server `json:"servers"`
	// Combined is, per profile, the block all servers' instructions make
	// together, when more than one server sent instructions.
	Combined []Combined `json:"combined,omitempty"`
}

// A ProfileRef names a profile used and its evidence.
type ProfileRef struct {
	ID       string   `json:"client"`
	Title    string   `json:"title"`
	Evidence []string `json:"evidence"`
}

// A Server is one server's probe result and its assessment.
type Server struct {
	probe.Result
	// Reached is false when neither era got a JSON-RPC reply.
	Reached bool `json:"reached"`
	// Texts describes the instructions of each era that answered with a
	// result.
	Texts []Text `json:"texts,omitempty"`
	// SameEras is set when both eras answered with a result; EraDiff says
	// where their instructions part.
	SameEras *bool  `json:"same_eras,omitempty"`
	EraDiff  *Diff  `json:"era_diff,omitempty"`
	Views    []View `json:"views,omitempty"`
	// Verdicts are what each client version does with the server, in a
	// word and the losses that decide it; Problems the findings grouped
	// by kind of loss over tools and clients, the worst first, each with
	// its fix; Findings each finding on its own.
	Verdicts []ClientVerdict `json:"verdicts,omitempty"`
	Problems []Problem       `json:"problems,omitempty"`
	Findings []Finding       `json:"findings"`
	Tools    []ToolView      `json:"tools_over_cap,omitempty"`
	// Documented are the limits the providers of the clients' model APIs
	// document that the server's names break as the clients send them:
	// documented, not measured, apart from the findings.
	Documented []Documented `json:"documented,omitempty"`
	// shown is, once the report is redacted, each era's instructions cut
	// where the views cut them, each piece redacted on its own.
	shown map[probe.Era]shownText
}

// shownText is an era's instructions as -show prints them: the pieces
// between the cuts, and the length of the text sent.
type shownText struct {
	pieces []string
	total  int
}

// A Text describes one era's instructions.
type Text struct {
	Era           probe.Era `json:"era"`
	Present       bool      `json:"present"`
	Chars         int       `json:"chars"`
	Bytes         int       `json:"bytes"`
	Tokens        int       `json:"tokens_estimate"`
	CharsPerToken float64   `json:"chars_per_token,omitempty"`
	Sections      []Section `json:"sections,omitempty"`
	// SHA256 is the start of the instructions' SHA-256, and Tools the
	// era's tool list in a count and a digest (fingerprint): run names
	// the texts it measured the same way, so a user can tell whether
	// both examined the same server.
	SHA256 string            `json:"sha256,omitempty"`
	Tools  fingerprint.Tools `json:"tools"`
}

// A View is what one client profile does with one server's instructions.
type View struct {
	// Profile is the client version, name@version (JSON "client", as
	// every output names one: docs/glossary.md); Title the line check
	// prints for the view, the client's title and its arm (JSON "label").
	Profile string `json:"client"`
	Title   string `json:"label"`
	// Client is the client version's title (the Title without the arm);
	// Way the arm this view is for, in a few words (an approval mode, a
	// model, a flag), "" for the profile's own when the client has no
	// arms (profiles.Profile.Way).
	Client string `json:"title"`
	Way    string `json:"arm,omitempty"`
	// Arm is the name of the arm the client declares the view holds in,
	// when the client declares arms ("" for its default otherwise).
	Arm string `json:"declared_arm,omitempty"`
	// ProfileNote says why the profile stands for another version, when
	// it does (profiles.Profile.ForNote).
	ProfileNote string    `json:"profile_note,omitempty"`
	Era         probe.Era `json:"era,omitempty"` // the era the client ends up in; "" when none
	Why         string    `json:"why"`
	Cap         int       `json:"cap"`
	// CapUnit is what Cap counts (a unit.Unit), as the profile says.
	CapUnit string `json:"cap_unit"`
	// CapSource is "default", "set" or "ignored" (the setting's value is
	// not one the client accepts).
	CapSource string `json:"cap_source"`
	Setting   string `json:"setting,omitempty"` // NAME=VALUE when set
	Present   bool   `json:"present"`
	Chars     int    `json:"chars"`
	KeptChars int    `json:"kept_chars"`
	LostChars int    `json:"lost_chars"`
	// Units and KeptUnits are Chars and KeptChars counted in CapUnit.
	Units     int  `json:"units,omitempty"`
	KeptUnits int  `json:"kept_units,omitempty"`
	Truncated bool `json:"truncated"`
	// Before and After are the text just before and after the cut.
	Before string `json:"before,omitempty"`
	After  string `json:"after,omitempty"`
	Loss   Loss   `json:"loss"`
	// Block is the rendered block for this server alone, as the client
	// puts it in the model's context.
	BlockChars  int `json:"block_chars"`
	BlockTokens int `json:"block_tokens_estimate"`
	KeptTokens  int `json:"kept_tokens_estimate"`
	// Unused is set when the profile measured that the client puts none
	// of the text in the model's context.
	Unused bool `json:"unused,omitempty"`
	// AtLeast is the profile's lower bound on a cap never reached (0
	// when the cap is known or nothing was measured).
	AtLeast int `json:"at_least,omitempty"`
	// CapMeasured is the profile's Instructions.Measured.
	CapMeasured bool `json:"cap_measured"`
	// SameAs is the label of an earlier view of the same client version
	// (another arm) that says all this view says; check then
	// prints this one as a line naming it.
	SameAs string `json:"same_as,omitempty"`
	// NotMeasured is set for a server over Streamable HTTP when the
	// profile has no HTTP view: the view predicts nothing (Why says so).
	NotMeasured bool `json:"not_measured,omitempty"`
	// Failure is what the profile says the client does with a method
	// the server failed on the way to Era (Why says it too); nil when
	// none failed.
	Failure *FailureView `json:"failure,omitempty"`
	// Late is what the client does with a server whose first reply came
	// later than it waits at most (its profile's measured wait budget,
	// past which it "sends the first request without the server", "drops
	// the server" ...), as the budget says; "" when the server was in
	// time or no budget was measured. A late server is in no era: nothing
	// of it reaches the client's first request.
	Late string `json:"late,omitempty"`
	// Facts are the profile's other properties, each marked measured
	// or not.
	Facts []Fact `json:"facts"`
	// Tools is what the profile predicts of each tool's description,
	// when it measured how the client sends them (ToolDescriptions.Via)
	// or documents a cap.
	Tools []ToolFate `json:"tools,omitempty"`
	// Surface is what the profile's surface predicts of each tool (its
	// name, input schema, structured results), when it measured one.
	Surface []SurfaceFate `json:"surface,omitempty"`
	// documented are the view's tools past a limit documented for its
	// profile's model API (documentedHits).
	documented []documentedHit
	// Calls is what the profile predicts of the result of each tool
	// check called (-call): which of its parts reaches the model, and
	// whether whole.
	Calls []CallFate `json:"calls,omitempty"`
	// Texts is what the profile predicts of the server's prompts and
	// resources, when the server declares either and the profile
	// measured them.
	Texts *TextsFate `json:"texts,omitempty"`
	// Where is where the block goes, in a word or two
	// (profiles.Render.Where).
	Where string `json:"where"`
	// Marker is what the profile appends to a cut text; Placement where
	// it puts the block, in plain words; ToolsVia how the tools reached
	// the model (profiles.Limit.Via). They are the profile's, carried for
	// printing, and not repeated in JSON.
	Marker string `json:"-"`
	// FirstLine is set when the client keeps only the text's first line
	// (its profile's instructions.lines), whatever the cap.
	FirstLine bool   `json:"-"`
	Placement string `json:"-"`
	// Probes is set when the client sends server/discover first, over
	// the server's transport.
	Probes   bool   `json:"-"`
	ToolsVia string `json:"-"`
	// NoTools is set when the profile measured that no tool of the
	// server reaches the model's first request, not even by its name.
	NoTools bool `json:"no_tools,omitempty"`

	kept  string
	block string
	text  string // the instructions the cut is in, for Before and After (aroundCut)
	// measured are the facts of this way of running the client its
	// profile measured, of those a loss may rest on (measuredFacts): a
	// way that did not measure what decides another way's loss cannot
	// say it works (verdicts).
	measured map[fact]bool
	// added is what the client does with a tool the server adds later
	// (addedToolsFate); tasks, with the server's tools to be called as
	// tasks (taskFate); stopped, the calls whose asks stop the client's
	// turn (stoppedTurns).
	added   addedTools
	tasks   taskTools
	stopped []stoppedTurn
}

// A ToolView is a tool description longer than a profile's cap.
type ToolView struct {
	Profile string    `json:"client"`
	Client  string    `json:"title"`
	Way     string    `json:"arm,omitempty"`
	Era     probe.Era `json:"era"`
	Tool    string    `json:"tool"`
	Chars   int       `json:"chars"`
	Cap     int       `json:"cap"`
	// CapUnit is what Cap counts (a unit.Unit).
	CapUnit string `json:"cap_unit"`
	// Measured is false when the profile's cap on tool descriptions comes
	// from documentation only.
	Measured bool `json:"measured"`
	// FirstLine is set when the client keeps the description's first line
	// alone (its profile's lines rule), KeptChars characters of it.
	FirstLine bool `json:"first_line,omitempty"`
	KeptChars int  `json:"kept_chars"`
}

// A ToolFate is what a profile predicts of one tool's description: kept
// whole, cut (kept KeptChars of Chars, the cut between Before and After),
// or not sent at all (Unsent: the client names the tool, or its server,
// without the description).
type ToolFate struct {
	Tool      string `json:"tool"`
	Chars     int    `json:"chars"`
	KeptChars int    `json:"kept_chars"`
	// Trimmed is how many characters of white space around the
	// description the client removes (its profile's
	// tool_descriptions.trim): neither kept nor lost.
	Trimmed   int  `json:"trimmed,omitempty"`
	Truncated bool `json:"truncated,omitempty"`
	Unsent    bool `json:"unsent,omitempty"`
	// FirstLine is set when the client keeps only the description's
	// first line (its profile's tool_descriptions.lines), whatever the cap.
	FirstLine bool `json:"first_line,omitempty"`
	// Beyond is set when the description is longer than the longest the
	// profile saw kept whole, with no cap measured: kept as far as
	// measured.
	Beyond bool   `json:"beyond_measured,omitempty"`
	Before string `json:"before,omitempty"`
	After  string `json:"after,omitempty"`
	desc   string // the description the cut is in
	lead   int    // characters of white space removed at its start
	// Meta is the _meta key whose measured limit applied to this tool
	// (profiles.Limit.Meta), "" when the profile's own did.
	Meta string `json:"meta,omitempty"`
}

// Combined is one profile's block for all servers together.
type Combined struct {
	Profile string   `json:"client"`
	Servers []string `json:"servers"`
	Chars   int      `json:"chars"`
	Tokens  int      `json:"tokens_estimate"`
	// Assumed is set when the profile's evidence did not cover several
	// servers: the separator, order and per-server budget are assumed.
	Assumed string `json:"assumed,omitempty"`
	Text    string `json:"text"`
}

// A Diff is where two texts part: the code point offset and each text
// from there (clipped).
type Diff struct {
	At     int    `json:"at"`
	Legacy string `json:"legacy"`
	Modern string `json:"modern"`
}

func diff(a, b string) *Diff {
	ra, rb := []rune(a), []rune(b)
	i := 0
	for i < len(ra) && i < len(rb) && ra[i] == rb[i] {
		i++
	}
	clipAt := func(r []rune) string { return string(r[i:min(len(r), i+contextChars/2)]) }
	return &Diff{At: i, Legacy: clipAt(ra), Modern: clipAt(rb)}
}

// contextChars is how much text around a cut is quoted.
const contextChars = 60

// Assess assesses probe results against profiles and rules.
func Assess(results []probe.Result, o Options) Report {
	if o.Getenv == nil {
		o.Getenv = func(string) (string, bool) { return "", false }
	}
	rep := Report{Tokenizer: tokens.Label, Selection: o.Selection}
	for _, p := range o.Profiles {
		ref := ProfileRef{ID: p.ID(), Title: p.Title()}
		for _, e := range p.Evidence {
			ref.Evidence = append(ref.Evidence, e.Kind+": "+e.Ref)
		}
		rep.Profiles = append(rep.Profiles, ref)
	}
	for _, r := range results {
		rep.Servers = append(rep.Servers, assessServer(r, o))
	}
	rep.Combined = combine(rep.Servers, o.Profiles)
	return rep
}

func assessServer(r probe.Result, o Options) Server {
	s := Server{Result: r, Reached: r.Legacy.Answered() || r.Modern.Answered()}
	for _, e := range []probe.EraResult{r.Legacy, r.Modern} {
		if e.OK() {
			s.Texts = append(s.Texts, describe(e))
		}
	}
	if r.Legacy.OK() && r.Modern.OK() {
		same := text(r.Legacy) == text(r.Modern) && (r.Legacy.Instructions == nil) == (r.Modern.Instructions == nil)
		s.SameEras = &same
		if !same {
			s.EraDiff = diff(text(r.Legacy), text(r.Modern))
		}
	}
	s.Views, s.Tools = views(r, o)
	markSame(s.Views)
	raw := findings(s, o)
	s.Findings = merge(raw, s.Views)
	s.Problems = problems(s.Findings, s.Views)
	s.Verdicts = verdicts(s, raw)
	s.Documented = documentedConflicts(s.Views)
	return s
}

// views is r seen by each of o's profiles, in their order, with the tools
// whose descriptions each cuts. The views are made on every CPU at once:
// each reads r and its profile only, and check waits for them.
func views(r probe.Result, o Options) ([]View, []ToolView) {
	n := len(o.Profiles)
	if n == 0 {
		return nil, nil
	}
	ps := schemasOf(r)
	vs, cut := make([]View, n), make([][]ToolView, n)
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), n) {
		wg.Go(func() {
			for i := int(next.Add(1)) - 1; i < n; i = int(next.Add(1)) - 1 {
				p := o.Profiles[i]
				if vs[i] = view(p, r, o.Getenv, ps); !vs[i].NotMeasured {
					cut[i] = toolsOver(p, r, o.Getenv)
				}
			}
		})
	}
	wg.Wait()
	return vs, slices.Concat(cut...)
}

func text(e probe.EraResult) string {
	if e.Instructions == nil {
		return ""
	}
	return *e.Instructions
}

func describe(e probe.EraResult) Text {
	t := Text{Era: e.Era, Present: e.Instructions != nil, Tools: e.ToolsPrint()}
	if !t.Present {
		return t
	}
	s := *e.Instructions
	t.Chars, t.Bytes, t.Tokens = utf8.RuneCountInString(s), len(s), tokens.Count(s)
	t.SHA256 = fingerprint.Of(s).SHA256
	if t.Tokens > 0 {
		t.CharsPerToken = float64(int(float64(t.Chars)/float64(t.Tokens)*100+0.5)) / 100
	}
	if s != "" {
		t.Sections = Sections(s)
	}
	return t
}

// clientEra is the era a client following p ends up in with this server,
// and, when the server failed a method on its way there, what p says the
// client does then (nil when nothing failed): a client that drops the
// server, or ends its session, ends up in no era; so does one that the
// server answered later than it waits (late: what it does then).
func clientEra(p profiles.Profile, r probe.Result, getenv func(string) (string, bool)) (e probe.EraResult, why string, fv *FailureView, late string) {
	probes := p.Handshake.ProbeStdio
	if r.Target.Transport == probe.TransportHTTP { // p is its HTTP view (view)
		probes = p.Handshake.ProbeHTTP
	}
	switch {
	case probes && r.Modern.OK():
		e, why = r.Modern, "server/discover answered, so it never sends initialize"
	case probes && r.Legacy.OK():
		e, why = r.Legacy, "server/discover got no result, so it falls back to initialize"
	case r.Legacy.OK():
		e, why = r.Legacy, "it does not probe: initialize"
	default:
		why = "no era it speaks answered"
	}
	if m := failed(p, r, probes, e); m != "" {
		var drops bool
		fv, drops = failureView(p, m)
		why += "; " + fv.Note
		if drops {
			e = probe.EraResult{}
		}
	}
	if msg, past, ok := tooLate(p, r, e.Era, getenv); ok {
		e, why, late = probe.EraResult{}, why+"; "+msg, past
	}
	return e, why, fv, late
}

// tooLate says whether the server's first reply in era (its median over
// check's runs) came later than the client following p waits at most,
// as its measured wait budget says, and what the client does then; a
// reply inside the budget's range is a race and not late, and a wait
// from documentation alone decides nothing here (startup-slow says it);
// nor does it over HTTP (the budgets are measured over stdio).
func tooLate(p profiles.Profile, r probe.Result, era probe.Era, getenv func(string) (string, bool)) (msg, past string, late bool) {
	st := r.Startup.Legacy
	if era == probe.Modern {
		st = r.Startup.Modern
	}
	w := startupWait(p, getenv)
	if era == "" || r.Target.Transport == probe.TransportHTTP || st.N == 0 || w.budget == nil || w.budget.Above || w.budget.Below || w.upto == 0 || st.Median.D() < w.upto {
		return "", "", false
	}
	past = w.budget.PastBudget
	if past == "" || past == "not measured" {
		past = "does not wait for it (what it does then " + NotMeasured + ")"
	}
	return fmt.Sprintf("its first reply came after %v (median of %d), later than the client waits, %s: past it the client %s", ms(st.Median.D()), st.N, w, past), past, true
}

func view(p profiles.Profile, r probe.Result, getenv func(string) (string, bool), ps parsedSchemas) View {
	overHTTP := r.Target.Transport == probe.TransportHTTP
	if overHTTP {
		q, ok := p.OverHTTP()
		if !ok {
			return View{Profile: p.ID(), Title: p.Title(), Client: p.Named(), Way: p.Way, Arm: p.Arm, ProfileNote: p.ForNote,
				NotMeasured: true, Why: profiles.NoHTTPView, Where: NotMeasured, Facts: Facts(p)}
		}
		p = q
	}
	v := View{Profile: p.ID(), Title: p.Title(), Client: p.Named(), Way: p.Way, Arm: p.Arm, ProfileNote: p.ForNote, Marker: p.Instructions.Marker, Placement: p.Render.Placement, Where: p.Render.Where(), ToolsVia: p.ToolDescriptions.Via,
		NoTools: p.ToolDescriptions.Unsent && p.ToolDescriptions.Via == "",
		Unused:  p.Render.Unused, AtLeast: p.Instructions.AtLeast, CapMeasured: p.Instructions.Measured, Facts: Facts(p), measured: measuredFacts(p)}
	e, why, fv, late := clientEra(p, r, getenv)
	v.Facts = append(v.Facts, approvalFact(p, e.Tools))
	v.Facts = append(v.Facts, protocolFact(p, e, r.Calls(), ps)...)
	v.added = addedToolsFate(p, e, r.Calls())
	v.tasks = taskFate(p, e)
	v.stopped = stoppedTurns(p, e, r.Calls())
	if overHTTP {
		why += fmt.Sprintf("; over HTTP as measured (%d runs)", p.HTTP.Runs)
	}
	v.Era, v.Why, v.Failure, v.Late = e.Era, why, fv, late
	v.Probes = p.Handshake.ProbeStdio
	if overHTTP {
		v.Probes = p.Handshake.ProbeHTTP
	}
	var value string
	var set bool
	if st := p.Instructions.Setting; st != nil {
		if value, set = getenv(st.Env); set && value != "" {
			v.Setting = st.Env + "=" + value
		}
	}
	v.Cap, v.CapSource = p.Instructions.EffectiveCap(value, set)
	v.Tools = toolFates(p, e, getenv)
	if r.Target.Transport != probe.TransportHTTP {
		v.Surface = surfaceFates(p, e, r.Target.Name, ps) // measured over stdio only
		v.documented = documentedHits(p, v)
		v.Calls = callFates(p, r.Calls())
		v.Texts = textsFate(p, e)
	}
	if e.Instructions == nil {
		return v
	}
	v.Present = true
	if v.Unused {
		v.Chars = utf8.RuneCountInString(*e.Instructions)
		v.LostChars = v.Chars
		return v
	}
	c := p.Instructions.Apply(*e.Instructions, v.Cap)
	v.Chars, v.KeptChars, v.LostChars, v.Truncated = c.Chars, c.KeptChars, c.LostChars, c.Truncated
	if c.Truncated && !strings.HasSuffix(c.Delivered, p.Instructions.Marker) {
		v.Marker = "" // cut where the client adds none (its first line)
	}
	v.FirstLine = c.Truncated && p.Instructions.Lines == profiles.LinesFirst && strings.Contains(*e.Instructions, "\n")
	v.CapUnit, v.Units, v.KeptUnits = string(c.Unit), c.Units, c.Unit.Count(c.Kept)
	v.kept = c.Kept
	v.KeptTokens = tokens.Count(c.Kept)
	if c.Truncated {
		v.text = *e.Instructions
		v.Before, v.After = aroundCut(v.text, c.KeptChars, contextChars, nil)
		v.Loss = lossAt(Sections(*e.Instructions), c.KeptChars)
	}
	v.block = p.Render.Apply([]profiles.Block{{Server: r.Target.Name, Text: c.Delivered}})
	v.BlockChars, v.BlockTokens = utf8.RuneCountInString(v.block), tokens.Count(v.block)
	return v
}

// markSame sets SameAs on each view that says all an earlier view of the
// same client version says, the first such, so that arms and variants
// that change nothing for this server are not repeated. Two views say the
// same when they differ in nothing but their title, way and arm, and in
// which of their facts were measured (what a view prints, not what decides
// its verdict).
func markSame(vs []View) {
	bare := make([]View, len(vs)) // each view without those, copied once: a View is large
	for i := range vs {
		bare[i] = vs[i]
		bare[i].Title, bare[i].Way, bare[i].Arm, bare[i].measured = "", "", "", nil
		for j := range i {
			if vs[j].SameAs == "" && vs[j].Profile == vs[i].Profile && reflect.DeepEqual(&bare[j], &bare[i]) {
				vs[i].SameAs = vs[j].Title
				break
			}
		}
	}
}

func toolsOver(p profiles.Profile, r probe.Result, getenv func(string) (string, bool)) []ToolView {
	e, _, _, _ := clientEra(p, r, getenv)
	var out []ToolView
	for _, t := range e.Tools {
		l, _ := p.ToolDescriptions.MetaOf(t.Meta)
		if l.Unsent {
			continue // no description reaches the model to be cut
		}
		if c := l.Apply(t.Description, toolCap(l, getenv)); c.Truncated {
			out = append(out, ToolView{Profile: p.ID(), Client: p.Named(), Way: p.Way, Era: e.Era, Tool: t.Name, Chars: c.Chars, Cap: c.Cap, CapUnit: string(c.Unit), Measured: l.Measured,
				FirstLine: c.FirstLine, KeptChars: c.KeptChars})
		}
	}
	return out
}

// toolCap is the cap of l, a limit on tool descriptions, with the
// client's environment.
func toolCap(l profiles.Limit, getenv func(string) (string, bool)) int {
	var value string
	var set bool
	if st := l.Setting; st != nil {
		value, set = getenv(st.Env)
	}
	limit, _ := l.EffectiveCap(value, set)
	return limit
}

// toolFates predicts what becomes of each tool description of era e
// under p, when p measured how the client sends them or documents a cap;
// nil otherwise (the fact then says the cap was not measured). A tool
// whose _meta holds a key p measured gets that key's limit.
func toolFates(p profiles.Profile, e probe.EraResult, getenv func(string) (string, bool)) []ToolFate {
	if l := p.ToolDescriptions; l.Via == "" && l.Cap == 0 && !l.Unsent {
		return nil
	}
	var out []ToolFate
	for _, t := range e.Tools {
		l, key := p.ToolDescriptions.MetaOf(t.Meta)
		n := utf8.RuneCountInString(t.Description)
		f := ToolFate{Tool: t.Name, Chars: n, Meta: key}
		switch {
		case l.Unsent:
			f.Unsent = true
		default:
			c := l.Apply(t.Description, toolCap(l, getenv))
			f.KeptChars, f.Truncated, f.Trimmed = c.KeptChars, c.Truncated, c.Trimmed
			f.FirstLine = c.FirstLine
			f.Beyond = c.Cap == 0 && l.AtLeast > 0 && n > l.AtLeast
			if c.Truncated {
				f.desc, f.lead = t.Description, c.Lead
				f.Before, f.After = aroundCut(f.desc, f.lead+f.KeptChars, contextChars/2, nil)
			}
		}
		out = append(out, f)
	}
	return out
}

func combine(servers []Server, ps []profiles.Profile) []Combined {
	var out []Combined
	for i, p := range ps {
		c := Combined{Profile: p.ID()}
		var blocks []profiles.Block
		for _, s := range servers {
			if i >= len(s.Views) || !s.Views[i].Present || s.Views[i].Unused {
				continue
			}
			v := s.Views[i]
			blocks = append(blocks, profiles.Block{Server: s.Target.Name, Text: v.kept + marker(v, p)})
			c.Servers = append(c.Servers, s.Target.Name)
		}
		if len(blocks) < 2 {
			continue
		}
		c.Text = p.Render.Apply(blocks)
		c.Chars, c.Tokens = utf8.RuneCountInString(c.Text), tokens.Count(c.Text)
		if !p.Render.MultiServerMeasured {
			c.Assumed = "several servers were not measured for " + p.Title() + ": separator, order and a per-server cap are assumed"
		}
		out = append(out, c)
	}
	return out
}

func marker(v View, p profiles.Profile) string {
	if v.Truncated {
		return p.Instructions.Marker
	}
	return ""
}

// aroundCut is the n characters of text before its k-th and the n from
// it. pieces, when not nil, rewrites the four parts of text in order
// (what precedes, before, after, what follows) as a redactor does
// (redact.Redactor.ProsePieces), so that a value the window cuts is
// hidden in it too.
func aroundCut(text string, k, n int, pieces func([]string) []string) (before, after string) {
	runes := []rune(text)
	a, b := max(0, k-n), min(len(runes), k+n)
	p := []string{string(runes[:a]), string(runes[a:k]), string(runes[k:b]), string(runes[b:])}
	if pieces != nil {
		p = pieces(p)
	}
	return p[1], p[2]
}
