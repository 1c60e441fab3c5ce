package budget

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/instrlab/instrlab/internal/unit"

	"github.com/instrlab/instrlab/internal/atlas"
	"github.com/instrlab/instrlab/internal/atlas/sweep"
	"github.com/instrlab/instrlab/internal/client"
	"github.com/instrlab/instrlab/internal/load"
	"github.com/instrlab/instrlab/internal/matrix"
	"github.com/instrlab/instrlab/internal/matrix/analyze"
	"github.com/instrlab/instrlab/internal/matrix/runner"
	"github.com/instrlab/instrlab/internal/profiles"
	"github.com/instrlab/instrlab/internal/profiles/derive"
)

// Options say which client to measure, and how its runs go.
type Options struct {
	Client client.Client
	// Matrix and Row are the probe: Row (resolved in Matrix) with the
	// budget's variable set per run. Nil means the atlas matrix's en-1000
	// row (ProbeRow).
	Matrix *matrix.Matrix
	Row    string
	// Env is a setting the budget is measured under (as
	// CLAUDE_CODE_MCP_STARTUP_WAIT_MS=5000), added to the row's.
	Env map[string]string
	// Out is the evidence directory: one subdirectory per budget and run,
	// each holding the run of each client as instrlab run lays it out.
	Out     string
	Lab     string
	Timeout time.Duration
	Netns   bool
	// Progress receives a line per run.
	Progress io.Writer
	// Near holds, by budget, what was measured of it on neighbouring
	// versions, nearest first (a sweep's, Sweeper): each search tries
	// their edges first (Search.Near), and the count of a result budget
	// theirs when their edge is its.
	Near map[string][]Measurement
	// Gate, when set, is shared by the runs of clients measured at once
	// (Command.Jobs): it holds their servers' start-ups under a quarter of
	// the smallest wait budget, or lets fewer run at once.
	Gate *load.Gate
}

// A Measurement is one budget of one client version, as a number.
type Measurement struct {
	Client string `json:"client"`
	Budget string `json:"budget"`
	Unit   string `json:"unit"`
	// Within and Past are the largest value met within the budget and the
	// smallest met past it: the budget lies between, to Resolution.
	// Below is set when the client was past it at the range's low end,
	// Above when within at its high end (then one side alone is known).
	Within     float64 `json:"within"`
	Past       float64 `json:"past,omitempty"`
	Below      bool    `json:"below,omitempty"`
	Above      bool    `json:"above,omitempty"`
	Resolution float64 `json:"resolution,omitempty"`
	// PastBudget is what the client does with a server past the budget;
	// Late whether a server ready after the first request reaches a later
	// one.
	PastBudget string `json:"past_budget"`
	Late       string `json:"late"`
	// Note is what the runs show beside the number: the descriptions'
	// size at a deferral threshold, the client's whole name for the
	// longest tool name.
	Note string `json:"note,omitempty"`
	// Names, of the tool-name limit, is what its runs at the edge show
	// of the client's names: its prefix, and the whole names kept and
	// past it (profiles.Budget.Names); nil when no run shows the prefix.
	Names *profiles.Names `json:"names,omitempty"`
	// Settings are the environment the runs had besides the row's own.
	Settings map[string]string `json:"settings,omitempty"`
	// Way is how the row ran the client beyond its defaults
	// (profiles.Budget.Way), "" for its default way. Model is the model
	// the runs' requests named (the row's, or one the client's adapter
	// chose: Codex calls tools with local-model), "" when none was read.
	Way   string `json:"way,omitempty"`
	Model string `json:"model,omitempty"`
	Runs  int    `json:"runs"`
	// Disagree counts runs that contradicted the others: the edge is a
	// race there. Unresolved is set when the runs ran out before the two
	// sides came within the resolution.
	Disagree   int    `json:"disagree,omitempty"`
	Unresolved bool   `json:"unresolved,omitempty"`
	Failed     string `json:"failed,omitempty"`
	// MaxLoad is the highest one-minute load average a run saw; 0 when
	// not measured.
	MaxLoad float64   `json:"max_load,omitempty"`
	Steps   []Outcome `json:"steps"`
	// Counts is what the client counts the budget in, told by runs of
	// text outside the Basic Multilingual Plane at the edge (counts),
	// CountsNote what they showed; "" when not measured. CountSteps are
	// those runs.
	Counts     unit.Unit `json:"counts,omitempty"`
	CountsNote string    `json:"counts_note,omitempty"`
	CountSteps []Outcome `json:"count_steps,omitempty"`
}

// Text is the budget as a user reads it: "2.0–2.2 s", "under 30 ms",
// "at least 60.0 s", "defers from 41 tools (not at 40)". A search that
// failed says so with why, and what its runs before the failure showed;
// it never writes a range it did not bracket.
func (m Measurement) Text() string {
	k, ok := kindOf(m.Budget)
	if !ok {
		return "not measured: no budget " + m.Budget
	}
	if m.Failed != "" {
		return k.failed(m)
	}
	if m.Unresolved && !m.Below && !m.Above {
		return k.format(m.Within) + "–" + k.format(m.Past) + " (not resolved to its resolution: the runs ran out)"
	}
	if m.Counts != "" {
		return k.say(m) + ", counted in " + m.Counts.Plural() + " (" + m.CountsNote + ")"
	}
	if m.CountsNote != "" {
		return k.say(m) + "; what it counts " + m.CountsNote
	}
	return k.say(m)
}

// failed writes a search that stopped at a failed run: not measured when
// no run before it told anything, else not resolved, with the run that
// failed and what the runs before it bracketed.
func (k kind) failed(m Measurement) string {
	if k.unread(m) {
		return "not measured: " + m.Failed
	}
	n := len(m.Steps)
	within, past := sides(m.Steps[:n-1])
	s := fmt.Sprintf("not resolved: the run at %s failed (%s)", k.format(m.Steps[n-1].Value), m.Failed)
	switch {
	case m.Below:
		return s + "; past the budget already at " + k.format(m.Past)
	case within && past:
		return s + "; between " + k.format(m.Within) + " and " + k.format(m.Past) + " by the runs before it"
	case past:
		return s + "; past it at " + k.format(m.Past) + " by the runs before it"
	}
	return s + "; within it at " + k.format(m.Within) + " by the runs before it"
}

// unread says whether a failed search read nothing: its first run
// failed, or a run at the range's low end with none within before it (a
// search that split first), which leaves what the runs above it read as
// past unexplained: the client may show nothing at any value.
func (k kind) unread(m Measurement) bool {
	n := len(m.Steps)
	if m.Failed == "" || n == 0 {
		return m.Failed != ""
	}
	within, _ := sides(m.Steps[:n-1])
	return n < 2 || !within && m.Steps[n-1].Value == k.search.Lo
}

// sides says whether any of steps that did not fail was within, and any
// past.
func sides(steps []Outcome) (within, past bool) {
	for _, st := range steps {
		within = within || st.Failed == "" && st.Within
		past = past || st.Failed == "" && !st.Within
	}
	return within, past
}

// ProbeRow is the default probe: the atlas matrix's row of 1,000
// characters, English.
const ProbeRow = "en-1000"

// Measure bisects each named budget of o.Client.
func Measure(ctx context.Context, o Options, budgets []string) ([]Measurement, error) {
	m := o.Matrix
	if m == nil {
		m = matrix.Atlas()
	}
	name := o.Row
	if name == "" {
		name = ProbeRow
	}
	var tmpl matrix.Row
	way, found := "", false
	for _, r := range m.Rows {
		if r.Name == name {
			tmpl, found = m.Resolved(r), true
			// The row's own model, flags and environment are a way of
			// running the client (a matrix-wide model is the matrix's
			// default, as the late-server matrix's "opus").
			way = profiles.Way("", r.Model, "", r.Flags, r.Env)
		}
	}
	if !found {
		return nil, fmt.Errorf("no row %q in matrix %q", name, m.Name)
	}
	if c := o.Client.Spec().Name; !tmpl.For(c) {
		// Its runs would run nothing: a row of one client's own tool
		// (docs/examples/late-server.matrix.json, late-CLIENT).
		return nil, fmt.Errorf("row %q of matrix %q is for %s only, not %s", name, m.Name, strings.Join(tmpl.Clients, ", "), c)
	}
	var out []Measurement
	for _, b := range budgets {
		k, ok := kindOf(b)
		if !ok {
			return out, fmt.Errorf("no budget %q (want one of %s)", b, strings.Join(Names, ", "))
		}
		ms, err := o.measure(ctx, m, tmpl, k)
		ms.Way = way
		out = append(out, ms)
		if err != nil {
			return out, err
		}
	}
	return out, nil
}

// measure bisects the budget k: the row with k's value set per run (for
// the wait budget, the server's handshake reply held until 0 to 60 s
// after its process started, ready_after, so that its own start-up,
// however the load stretches it, adds nothing while it is shorter than
// the hold).
func (o Options) measure(ctx context.Context, m *matrix.Matrix, tmpl matrix.Row, k kind) (Measurement, error) {
	spec := o.Client.Spec().String()
	results := map[string]analyze.Result{}
	step := 0
	probeWith := func(ctx context.Context, v float64, vary func(row *matrix.Row, v float64)) Outcome {
		step++
		row := tmpl
		row.Name, row.Repeats = k.name, 1
		row.InitDelay, row.DiscoverDelay, row.ReadyAfter = 0, 0, 0
		vary(&row, v)
		row.Env = maps.Clone(tmpl.Env)
		if len(o.Env) > 0 && row.Env == nil {
			row.Env = map[string]string{}
		}
		maps.Copy(row.Env, o.Env)
		r, err := o.run(ctx, m, row, filepath.Join(o.Out, k.name, fmt.Sprintf("%02d", step)))
		if err != nil {
			return Outcome{Value: v, Failed: err.Error()}
		}
		qualifyNamespace(&r, tmpl.ServerName())
		results[r.Dir] = r
		out := k.outcome(v, r)
		fmt.Fprintf(o.progress(), "%s %s: set %s, met %s: %s\n", spec, k.name, k.format(v), k.format(out.At), side(out))
		return out
	}
	probe := func(ctx context.Context, v float64) Outcome { return probeWith(ctx, v, k.vary) }
	s := k.search
	for _, n := range o.Near[k.name] {
		s.Near = append(s.Near, n.found())
	}
	f := Bisect(ctx, s, probe)
	ms := Measurement{Client: spec, Budget: k.name, Unit: k.unit, Within: f.Within, Past: f.Past, Below: f.Below, Above: f.Above,
		Settings: o.Env, Runs: len(f.Steps), Disagree: f.Disagree, Unresolved: f.Unresolved, Failed: f.Failed, Steps: f.Steps}
	if !f.Below && !f.Above && f.Failed == "" {
		ms.Resolution = f.Resolution()
	}
	var past, ok []analyze.Result
	for _, st := range f.Steps {
		r, found := results[st.Dir]
		if !found {
			continue
		}
		if l := r.Timing.Load; l != nil {
			ms.MaxLoad = max(ms.MaxLoad, l.Max())
		}
		if st.Failed == "" {
			ok = append(ok, r)
			if !st.Within {
				past = append(past, r)
			}
		}
	}
	ms.Model = requestModel(ok)
	// The runs past the budget, the one nearest its edge first.
	past = nearestFirst(f, past)
	ms.PastBudget = k.past(f, past)
	if k.unread(ms) {
		ms.PastBudget = "not measured"
	}
	ms.Late = "not measured"
	if k.late != nil {
		ms.Late = k.late(past)
	}
	if k.annotate != nil && f.Failed == "" {
		ms.Note = k.annotate(f, ok)
	}
	if k.names != nil && f.Failed == "" && !k.unread(ms) {
		ms.Names = k.names(f, ok, past, tmpl.ServerName())
	}
	if k.astral != nil && f.Failed == "" && !f.Below && !f.Above && !f.Unresolved && ctx.Err() == nil {
		var cf Found
		var near []Found
		for _, n := range o.Near[k.name] {
			if c, ok := n.countFound(); ok && n.Within == f.Within && !n.Below && !n.Above {
				near = append(near, c)
			}
		}
		ms.Counts, ms.CountsNote, cf = counts(ctx, int(f.Within), near, func(ctx context.Context, n int) (Outcome, sentSize) {
			o := probeWith(ctx, float64(n), func(row *matrix.Row, v float64) { k.astral(row, int(v)) })
			return o, k.sent(results[o.Dir])
		})
		ms.CountSteps = cf.Steps
		ms.Runs += len(cf.Steps)
	}
	if err := ctx.Err(); err != nil {
		return ms, err
	}
	return ms, nil
}

// found is what m's search found, as a guess for another's (Search.Near).
func (m Measurement) found() Found {
	return Found{Within: m.Within, Past: m.Past, Below: m.Below, Above: m.Above, Failed: m.Failed, Unresolved: m.Unresolved}
}

// countFound is what m's search of what the client counts found, read
// back from its runs: the largest count within and the smallest past, or
// one side alone (Above, Below); false when it made none that told.
func (m Measurement) countFound() (Found, bool) {
	var f Found
	var within, past bool
	for _, st := range m.CountSteps {
		switch {
		case st.Failed != "":
		case st.Within && (!within || st.At > f.Within):
			f.Within, within = st.At, true
		case !st.Within && (!past || st.At < f.Past):
			f.Past, past = st.At, true
		}
	}
	f.Above, f.Below = within && !past, past && !within
	return f, within || past
}

// requestModel is the model the first request of the first of runs that
// made one named, "" when none could be read.
func requestModel(runs []analyze.Result) string {
	for _, r := range runs {
		if r.First == nil {
			continue
		}
		if m, err := (derive.Dirs{}).Model(r.Dir, r.First.Seq); err == nil && m != "" {
			return m
		}
	}
	return ""
}

// nearestFirst orders the runs past the budget by the value their step
// met, the smallest (nearest the edge) first.
func nearestFirst(f Found, past []analyze.Result) []analyze.Result {
	at := map[string]float64{}
	for _, st := range f.Steps {
		at[st.Dir] = st.At
	}
	out := slices.Clone(past)
	slices.SortStableFunc(out, func(a, b analyze.Result) int { return cmp.Compare(at[a.Dir], at[b.Dir]) })
	return out
}

func side(o Outcome) string {
	switch {
	case o.Failed != "":
		return "failed: " + o.Failed
	case o.Within:
		return "within"
	}
	return "past"
}

// run runs one probe row once into out and returns its result.
func (o Options) run(ctx context.Context, m *matrix.Matrix, row matrix.Row, out string) (analyze.Result, error) {
	pm := &matrix.Matrix{Name: "budget-" + row.Name, Prompt: m.Prompt, Model: m.Model, MaxTurns: m.MaxTurns, Repeats: 1, Rows: []matrix.Row{row}}
	r := &runner.Runner{Clients: []client.Client{o.Client}, Matrix: pm, Out: out, Jobs: 1, Timeout: o.Timeout,
		Lab: o.Lab, Netns: o.Netns, Progress: io.Discard, Gate: o.Gate}
	results, _, err := r.Run(ctx)
	if err != nil {
		return analyze.Result{}, err
	}
	if len(results) != 1 {
		return analyze.Result{}, errors.New("the probe left no result")
	}
	return results[0], nil
}

func (o Options) progress() io.Writer {
	if o.Progress == nil {
		return io.Discard
	}
	return o.Progress
}

// A Sweeper measures budgets for a sweep (its Property is
// sweep.Sweep.MeasureBudget), each search starting from what was found on
// the versions next to the one measured (Options.Near): the measurement it
// made itself, whole, or, for a point it did not make (a resumed sweep),
// the span the point holds. Its zero value is ready to use.
type Sweeper struct {
	mu sync.Mutex
	// made are the measurements this Sweeper made, by their property's
	// evidence path (one a version and attempt).
	made map[string]Measurement
}

// Property measures one budget of a client version for a sweep and reads
// it as a property: its value the budget as a user reads it; for the wait
// budget, its span the bracket found, timing-sensitive when runs disagreed
// near the edge or did not resolve it. A count (the deferral threshold, the
// tool-name limit) has an exact span, its bracket: two versions differ when
// their numbers do, whatever their texts say beside them (the prefix a
// deferred tool's name shows no longer). A budget that could not be
// measured compares as text.
func (sw *Sweeper) Property(ctx context.Context, r sweep.BudgetRun) (atlas.Prop, error) {
	var near []Measurement
	sw.mu.Lock()
	for _, p := range r.Near {
		if m, ok := sw.made[p.Evidence]; ok && p.Evidence != "" {
			near = append(near, m)
		} else if p.Span != nil {
			near = append(near, spanMeasurement(*p.Span))
		}
	}
	sw.mu.Unlock()
	o := Options{Client: r.Client, Out: r.Out, Lab: r.Lab, Timeout: r.Timeout, Netns: r.Netns, Progress: r.Progress,
		Near: map[string][]Measurement{r.Budget: near}}
	ms, err := Measure(ctx, o, []string{r.Budget})
	if err != nil || len(ms) != 1 {
		return atlas.Prop{}, fmt.Errorf("measuring the %s budget: %v", r.Budget, err)
	}
	m := ms[0]
	prop := atlas.Prop{Name: atlas.BudgetProperty(r.Budget), Value: m.Text()}
	if n := len(m.Steps); n > 0 && m.Steps[n-1].Dir != "" && r.Rel != nil {
		prop.Evidence = r.Rel(filepath.Dir(m.Steps[n-1].Dir))
		sw.mu.Lock()
		if sw.made == nil {
			sw.made = map[string]Measurement{}
		}
		sw.made[prop.Evidence] = m
		sw.mu.Unlock()
	}
	if m.Failed != "" {
		return prop, nil
	}
	// The bracket: a count's is exact (read from what the client sent,
	// the same in every run: two versions differ when their numbers do),
	// a time's has its resolution.
	k, _ := kindOf(r.Budget)
	prop.Span = &atlas.Span{Lo: m.Within, Hi: m.Past, Exact: !k.timed}
	switch {
	case m.Below:
		prop.Span.Lo = 0
	case m.Above:
		prop.Span.Hi = 0
	}
	if !k.timed {
		return prop, nil
	}
	switch {
	case m.Disagree > 0:
		prop.Timing = fmt.Sprintf("%d of its %d runs disagreed near the edge", m.Disagree, m.Runs)
	case m.Unresolved:
		prop.Timing = "not resolved to its resolution: the runs' start-ups wandered"
	}
	return prop, nil
}

// spanMeasurement is a point's span (Property) as the measurement it
// brackets: Lo 0 one past at the range's low end, Hi 0 one within at its
// high end.
func spanMeasurement(s atlas.Span) Measurement {
	return Measurement{Within: s.Lo, Past: s.Hi, Below: s.Lo == 0 && s.Hi > 0, Above: s.Hi == 0}
}
