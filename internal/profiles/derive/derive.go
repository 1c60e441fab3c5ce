package derive

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/instrlab/instrlab/internal/client"
	"github.com/instrlab/instrlab/internal/matrix"
	"github.com/instrlab/instrlab/internal/matrix/analyze"
	"github.com/instrlab/instrlab/internal/profiles"
	"github.com/instrlab/instrlab/internal/table"
	"github.com/instrlab/instrlab/internal/unit"
	"github.com/instrlab/instrlab/lab"
)

// Options say how Profiles names its evidence and where it reads it.
type Options struct {
	// Ref is the evidence entry's ref: where the run's summary is kept
	// (a path in the repository, or the evidence directory). "{id}" in
	// it is replaced by the profile's client@version.
	Ref string
	// Evidence is where the runs are read again; nil reads their
	// directories (Dirs).
	Evidence Evidence
	// Excerpts, when not nil, receives per client@version the excerpt
	// of the evidence its profile was derived from.
	Excerpts map[string]*Excerpt
	// Command is the command that made the run, kept in the excerpts.
	Command string
	// Earlier, when set, gives the excerpt of earlier evidence of a
	// client@version, nil when there is none. Its runs join the run's,
	// before them, except those of a row and arm the run made again, so
	// that a profile is derived again with rows added to its matrix
	// without running the others again (internal/profiles/data).
	Earlier func(id string) (*Excerpt, error)
	// Display gives a client's name as its makers write it, the
	// profile's name (clients.Display); nil leaves the client's name.
	Display func(client string) string
}

// display is the profile's name of the client named name.
func (o Options) display(name string) string {
	if o.Display == nil {
		return name
	}
	return o.Display(name)
}

// Profiles derives one client profile per client@version in results, from
// what the evidence of its runs shows and nothing else: the cap and marker
// from runs whose text was cut, the cap setting from runs that set it, the
// rendering from the recorded request, the handshake from the lab's message
// log, the startup wait from runs with a slow server, the model from the
// requests. Runs made with a flag or another model are a variant of their
// own. What the runs do not show is listed under Unmeasured. Results need
// their Dir: the run records and recorded requests are read again.
func Profiles(results []analyze.Result, o Options) ([]profiles.Profile, error) {
	if o.Evidence == nil {
		o.Evidence = Dirs{}
	}
	// A client is profiled from a run that went well, or from runs that
	// failed as their rows measure on top of its earlier evidence.
	byClient := map[string][]analyze.Result{}
	var order []string
	ok := map[string]bool{}
	for _, r := range results {
		ok[r.Client] = ok[r.Client] || r.Status == "ok"
		if (r.Status == "ok" || failedOnPurpose(o.Evidence, r)) && !slices.Contains(order, r.Client) {
			order = append(order, r.Client)
		}
		byClient[r.Client] = append(byClient[r.Client], r)
	}
	sort.Strings(order)
	var out []profiles.Profile
	for _, id := range order {
		ev := o.Evidence
		var earlier *Excerpt
		if o.Earlier != nil {
			x, err := o.Earlier(id)
			if err != nil {
				return nil, fmt.Errorf("profile of %s: %w", id, err)
			}
			if x != nil {
				earlier = x
				var joined []analyze.Result
				joined, ev = layer(x, byClient[id], ev)
				byClient[id] = joined
			}
		}
		if earlier == nil && !ok[id] {
			continue // failures alone, with nothing measured before them
		}
		under := ev
		var rec *recorder
		if o.Excerpts != nil {
			rec = newRecorder(ev)
			ev = rec
		}
		var runs []run
		var kept []analyze.Result
		for _, r := range byClient[id] {
			if r.Status != "ok" && !failedOnPurpose(under, r) {
				continue
			}
			row, err := ev.Row(r.Dir)
			if err != nil {
				return nil, err
			}
			runs = append(runs, run{Result: r, Row: row})
			kept = append(kept, r)
		}
		p, err := derive(id, runs, o, ev)
		if err != nil {
			return nil, fmt.Errorf("profile of %s: %w", id, err)
		}
		if rec != nil {
			rec.x.Command = o.Command
			if earlier != nil && earlier.Command != "" && earlier.Command != o.Command {
				rec.x.Command = earlier.Command + "; with " + o.Command
			}
			for _, r := range kept {
				r.Dir = runName(r.Dir)
				rec.x.Results = append(rec.x.Results, r)
			}
			o.Excerpts[id] = rec.x
		}
		out = append(out, p)
	}
	return out, nil
}

// failedOnPurpose reports whether the failed run r is one of a row whose
// server failed a method on purpose (fail), or of the approval row in an
// arm with an approval mode: what the client did then, ending its session
// included, is what the row measures (deriveFailures, deriveApprovals),
// so the run is evidence. Other failed runs are not.
func failedOnPurpose(ev Evidence, r analyze.Result) bool {
	row, err := ev.Row(r.Dir)
	return err == nil && measuresFailure(row, r)
}

// measuresFailure reports whether a failed run r of row is evidence
// (failedOnPurpose), or a run of a protocol row that timed out: a client
// whose turn never ended (deriveProtocol).
func measuresFailure(row matrix.Row, r analyze.Result) bool {
	return row.Fail != "" || row.Name == matrix.ApprovalRow && r.Arm.Approval != "" ||
		protocolRow(row) && strings.HasPrefix(r.Reason, analyze.TimedOut)
}

// A run is one finished run: its result and its resolved row. isPlain is
// set when the run changes nothing but the server's text and era beyond
// what its group (the profile or a variant) is run with.
type run struct {
	analyze.Result
	Row     matrix.Row
	isPlain bool
}

// text is the server text of the run's row in reply, or "".
func (r run) text(reply lab.Reply) string {
	in, err := lab.ParseInstructions(r.Row.Instr)
	if err != nil || !in.Present() {
		return ""
	}
	t, err := in.For(reply)
	if err != nil {
		return ""
	}
	return t.Text
}

// apartBy splits runs into those for which in is false and those for which
// it is true, each in order.
func apartBy(all []run, in func(run) bool) (others, matched []run) {
	for _, r := range all {
		if in(r) {
			matched = append(matched, r)
		} else {
			others = append(others, r)
		}
	}
	return others, matched
}

// surfaceOf is the surface runs in the arm of base, the profile's own
// runs: a surface row run in another arm (the AI SDK's instructions, the
// Agents SDK's structured-content) measures that arm, and a variant holds
// no surface.
func surfaceOf(surf, base []run) []run {
	arm := ""
	if len(base) > 0 {
		arm = nonDefaultArm(base[0])
	}
	_, mine := apartBy(surf, func(r run) bool { return nonDefaultArm(r) == arm })
	return mine
}

// plain reports whether the run changes nothing but the server's text and
// era within its group, and reached the model.
func (r run) plain() bool {
	return r.isPlain && r.First != nil
}

func derive(id string, all []run, o Options, ev Evidence) (profiles.Profile, error) {
	spec, err := client.ParseSpec(id)
	if err != nil {
		return profiles.Profile{}, err
	}
	every := all
	all, appr := approvalRuns(all)
	all, proto := protocolRuns(all)
	all, surf := apart(all)
	allSurf := surf
	all, lines := apartLines(all)
	stdio, overHTTP := byTransport(all)
	base, groups := split(stdio)
	p := profiles.Profile{Client: spec.Name, Name: o.display(spec.Name), Version: spec.Version}
	p.Model = model(base, ev)
	p.API = apiOf(base)
	if len(base) > 0 && base[0].Arm.Name != "" && base[0].Arm.Name != client.DefaultArmName {
		p.Arm = base[0].Arm.Name
	}
	surf = surfaceOf(surf, base)
	p.Surface = deriveSurface(surf, ev, p.Model)
	p.Approvals = deriveApprovals(appr, ev, p.Model)
	p.Protocol = deriveProtocol(proto, base)
	var un []string
	p.Instructions, un = deriveLimit(base, ev)
	p.Unmeasured = append(p.Unmeasured, un...)
	lines, armLines := apartBy(lines, func(r run) bool { return nonDefaultArm(r) != "" })
	if p.Instructions.Lines, p.Instructions.LineBreak = deriveLines(lines); p.Instructions.Lines == "" && p.Instructions.Note != noTextReached {
		p.Unmeasured = append(p.Unmeasured, "a text of several lines (a lines-* row)")
	}
	p.Render, un, err = deriveRender(base, ev)
	if err != nil {
		return profiles.Profile{}, err
	}
	p.Unmeasured = append(p.Unmeasured, un...)
	p.ToolDescriptions, un = deriveTools(base)
	p.Unmeasured = append(p.Unmeasured, un...)
	p.ToolDescriptions.Meta = deriveToolMeta(base)
	if p.Surface != nil && !p.ToolDescriptions.Unsent {
		p.ToolDescriptions.Trim = deriveTrim(surf, p.ToolDescriptions.Via, p.Surface.Model)
	}
	if p.ToolDescriptions.Trim == "" && p.ToolDescriptions.Via != "" && !p.ToolDescriptions.Unsent {
		p.Unmeasured = append(p.Unmeasured, "white space around a tool description (the surface-names row, sent as the client's descriptions are)")
	}
	if p.ToolDescriptions.Lines, p.ToolDescriptions.LineBreak = deriveToolLines(lines); p.ToolDescriptions.Lines == "" && p.ToolDescriptions.Via != "" && !p.ToolDescriptions.Unsent {
		p.Unmeasured = append(p.Unmeasured, "a tool description of several lines (a tooldesc-lines-* row)")
	}
	p.Failures, un = deriveFailures(base)
	p.Unmeasured = append(p.Unmeasured, un...)
	p.Handshake, un = deriveHandshake(defaultArm(stdio))
	p.Unmeasured = append(p.Unmeasured, un...)
	p.Startup, un = deriveStartup(base)
	p.Unmeasured = append(p.Unmeasured, un...)
	p.Unmeasured = append(p.Unmeasured, "several servers in one session: separator, order, shared budget", "interactive sessions")
	for _, g := range groups {
		v := profiles.Variant{When: g.when(), Flags: g.flags, Model: model(g.runs, ev), Runs: len(g.runs), Arm: g.arm, ByModel: g.byModel}
		if g.arm != "" {
			h, _ := deriveHandshake(g.runs)
			v.Handshake = &h
		}
		v.Instructions, un = deriveLimit(g.runs, ev)
		v.Unmeasured = append(v.Unmeasured, un...)
		// What the client keeps of a text of several lines, from the
		// lines rows run in the variant's arm; not measured otherwise.
		var mine []run
		if g.arm != "" {
			_, mine = apartBy(armLines, func(r run) bool { return nonDefaultArm(r) == g.arm })
		}
		if v.Instructions.Lines, v.Instructions.LineBreak = deriveLines(mine); v.Instructions.Lines == "" && v.Instructions.Note != noTextReached {
			v.Unmeasured = append(v.Unmeasured, "a text of several lines (a lines-* row)")
		}
		v.Render, un, err = deriveRender(g.runs, ev)
		if err != nil {
			return profiles.Profile{}, fmt.Errorf("variant %s: %w", v.When, err)
		}
		v.Unmeasured = append(v.Unmeasured, un...)
		v.Startup, un = deriveStartup(g.runs)
		v.Unmeasured = append(v.Unmeasured, un...)
		td, un := deriveTools(g.runs)
		td.Meta = deriveToolMeta(g.runs)
		v.ToolDescriptions = &td
		v.Unmeasured = append(v.Unmeasured, un...)
		if td.Lines, td.LineBreak = deriveToolLines(mine); td.Lines == "" && td.Via != "" && !td.Unsent {
			v.Unmeasured = append(v.Unmeasured, "a tool description of several lines (a tooldesc-lines-* row)")
		}
		v.Failures, _ = deriveFailures(g.runs)
		// What the surface rows showed in the variant's arm, as its own
		// surface, when their evidence names the model they ran (a run
		// that calls tools may run another, Codex's local-model); a
		// variant of flags or a row's model has none.
		if g.arm != "" {
			_, mine := apartBy(allSurf, func(r run) bool { return nonDefaultArm(r) == g.arm })
			if s := deriveSurface(mine, ev, v.Model); s != nil && s.Model == "" {
				v.Surface = s
			}
		}
		p.Variants = append(p.Variants, v)
	}
	if p.HTTP, err = deriveHTTP(overHTTP, ev); err != nil {
		return profiles.Profile{}, err
	}
	if p.HTTP != nil {
		p.Handshake.ProbeHTTP = p.HTTP.Probe
		p.Unmeasured = slices.DeleteFunc(p.Unmeasured, func(u string) bool { return strings.Contains(u, "Streamable HTTP") })
	}
	ref := strings.ReplaceAll(o.Ref, "{id}", id)
	p.Evidence = []profiles.Evidence{{Kind: "instrlab-run", Ref: ref, Date: runDate(every), Runs: len(every), Says: says(p, every)}}
	return p, p.Validate()
}

// defaultArm is the runs in the client's default arm.
func defaultArm(all []run) []run {
	var out []run
	for _, r := range all {
		if nonDefaultArm(r) == "" {
			out = append(out, r)
		}
	}
	return out
}

// model is the model the first main request of the runs named: of the
// first run whose evidence says, "" when none does.
func model(runs []run, ev Evidence) string {
	m, _ := modelOf(runs, ev)
	return m
}

// modelOf is model, with the error of the last run that made a request
// whose model could not be read when none could (an excerpt written
// before it kept the model of every run it read); "" and nil when no run
// made a request.
func modelOf(runs []run, ev Evidence) (string, error) {
	var last error
	for _, r := range runs {
		if r.First == nil {
			continue
		}
		m, err := ev.Model(r.Dir, r.First.Seq)
		if err == nil {
			return m, nil
		}
		last = err
	}
	return "", last
}

// apiOf is the model API of the most runs' first requests, the first
// met among equals; "" when no run made a request.
func apiOf(runs []run) string {
	count := map[string]int{}
	best := ""
	for _, r := range runs {
		if r.First == nil || r.First.API == "" {
			continue
		}
		count[r.First.API]++
		if count[r.First.API] > count[best] {
			best = r.First.API
		}
	}
	return best
}

// runDate is the UTC day of the earliest first request.
func runDate(runs []run) string {
	var d string
	for _, r := range runs {
		if r.First == nil {
			continue
		}
		if s := r.First.Time.UTC().Format("2006-01-02"); d == "" || s < d {
			d = s
		}
	}
	return d
}

// says is the evidence entry's one line.
func says(p profiles.Profile, runs []run) string {
	rows := map[string]bool{}
	for _, r := range runs {
		rows[r.Row.Name] = true
	}
	l := p.Instructions
	capText := "no text was cut"
	if l.Cap > 0 {
		capText = fmt.Sprintf("cut at %s %s, then %q", table.Num(l.Cap), unitWords(unit.Unit(l.Unit)), l.Marker)
	} else if l.AtLeast > 0 {
		capText = fmt.Sprintf("no text was cut, up to %s characters", table.Num(l.AtLeast))
	}
	setting := ""
	if l.Setting != nil {
		setting = "; " + l.Setting.Env + " in plain digits only"
	}
	probe := "initialize first, no server/discover probe"
	if p.Handshake.ProbeStdio {
		probe = "server/discover first"
	}
	return fmt.Sprintf("instrlab run, offline against the fake API: %d runs of %d rows; %s%s; %s; %s on stdio%s.",
		len(runs), len(rows), capText, setting, p.Render.Placement, probe, toolSays(p.ToolDescriptions)+surfaceSays(p.Surface)+protocolSays(p.Protocol))
}
