package budget

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"path/filepath"
	"strings"
	"time"

	"github.com/instrlab/instrlab/internal/atlas"
	"github.com/instrlab/instrlab/internal/client"
	"github.com/instrlab/instrlab/internal/matrix"
	"github.com/instrlab/instrlab/internal/matrix/analyze"
	"github.com/instrlab/instrlab/internal/matrix/runner"
)

// Names of the budgets Measure knows.
const (
	Wait = "wait"
)

// Names lists the budgets Measure knows, for -budget's help and errors.
var Names = []string{Wait}

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
	// Settings are the environment the runs had besides the row's own.
	Settings map[string]string `json:"settings,omitempty"`
	Runs     int               `json:"runs"`
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
}

// Text is the budget as a user reads it: "2.0–2.2 s", "under 30 ms",
// "at least 60.0 s".
func (m Measurement) Text() string {
	switch {
	case m.Failed != "" && m.Runs < 2:
		return "not measured: " + m.Failed
	case m.Below:
		return "under " + seconds(m.Past)
	case m.Above:
		return "at least " + seconds(m.Within)
	case m.Unresolved:
		return seconds(m.Within) + "–" + seconds(m.Past) + " (not resolved to 10%: the runs ran out)"
	}
	return seconds(m.Within) + "–" + seconds(m.Past)
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
	found := false
	for _, r := range m.Rows {
		if r.Name == name {
			tmpl, found = m.Resolved(r), true
		}
	}
	if !found {
		return nil, fmt.Errorf("no row %q in matrix %q", name, m.Name)
	}
	var out []Measurement
	for _, b := range budgets {
		switch b {
		case Wait:
			ms, err := o.wait(ctx, m, tmpl)
			out = append(out, ms)
			if err != nil {
				return out, err
			}
		default:
			return out, fmt.Errorf("no budget %q (want one of %s)", b, strings.Join(Names, ", "))
		}
	}
	return out, nil
}

// wait bisects the wait budget: the row with the server's handshake
// reply held until 0 to 60 s after its process started (ready_after), so
// that its own start-up, however the load stretches it, adds nothing
// while it is shorter than the hold.
func (o Options) wait(ctx context.Context, m *matrix.Matrix, tmpl matrix.Row) (Measurement, error) {
	spec := o.Client.Spec().String()
	results := map[string]analyze.Result{}
	step := 0
	probe := func(ctx context.Context, v float64) Outcome {
		step++
		hold := time.Duration(v * float64(time.Second)).Round(time.Millisecond)
		row := tmpl
		row.Name, row.Repeats = Wait, 1
		row.InitDelay, row.DiscoverDelay, row.ReadyAfter = "", "", ""
		if hold > 0 {
			row.ReadyAfter = hold.String()
		}
		row.Label = fmt.Sprintf("%s, the server ready %s after its start", tmpl.Label, hold)
		row.Env = maps.Clone(tmpl.Env)
		if len(o.Env) > 0 && row.Env == nil {
			row.Env = map[string]string{}
		}
		maps.Copy(row.Env, o.Env)
		r, err := o.run(ctx, m, row, filepath.Join(o.Out, Wait, fmt.Sprintf("%02d", step)))
		if err != nil {
			return Outcome{Value: v, Failed: err.Error()}
		}
		results[r.Dir] = r
		out := waitOutcome(v, r)
		fmt.Fprintf(o.progress(), "%s wait: held %s, met %s: %s\n", spec, hold, seconds(out.At), side(out))
		return out
	}
	f := Bisect(ctx, WaitSearch(), probe)
	ms := Measurement{Client: spec, Budget: Wait, Unit: "s", Within: f.Within, Past: f.Past, Below: f.Below, Above: f.Above,
		Settings: o.Env, Runs: len(f.Steps), Disagree: f.Disagree, Unresolved: f.Unresolved, Failed: f.Failed, Steps: f.Steps}
	if !f.Below && !f.Above && f.Failed == "" {
		ms.Resolution = f.Resolution()
	}
	var past []analyze.Result
	for _, st := range f.Steps {
		r, ok := results[st.Dir]
		if !ok {
			continue
		}
		if l := r.Timing.Load; l != nil {
			ms.MaxLoad = max(ms.MaxLoad, l.Max())
		}
		if st.Failed == "" && !st.Within {
			past = append(past, r)
		}
	}
	ms.PastBudget, ms.Late = pastBudget(f, past), lateServer(past)
	if err := ctx.Err(); err != nil {
		return ms, err
	}
	return ms, nil
}

func side(o Outcome) string {
	switch {
	case o.Failed != "":
		return "failed: " + o.Failed
	case o.Within:
		return "waited"
	}
	return "did not wait"
}

// run runs one probe row once into out and returns its result.
func (o Options) run(ctx context.Context, m *matrix.Matrix, row matrix.Row, out string) (analyze.Result, error) {
	pm := &matrix.Matrix{Name: "budget-" + row.Name, Prompt: m.Prompt, Model: m.Model, MaxTurns: m.MaxTurns, Repeats: 1, Rows: []matrix.Row{row}}
	r := &runner.Runner{Clients: []client.Client{o.Client}, Matrix: pm, Out: out, Jobs: 1, Timeout: o.Timeout,
		Lab: o.Lab, Netns: o.Netns, Progress: io.Discard}
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

// AtlasProperty measures one budget of a client version for a sweep
// (atlas.Sweep.MeasureBudget) and reads it as a property: its value the
// budget as a user reads it, its span the bracket found, timing-sensitive
// when runs disagreed near the edge or did not resolve it. A budget that
// could not be measured reads "not measured" with why, and compares as
// text.
func AtlasProperty(ctx context.Context, r atlas.BudgetRun) (atlas.Prop, error) {
	ms, err := Measure(ctx, Options{Client: r.Client, Out: r.Out, Lab: r.Lab, Timeout: r.Timeout, Netns: r.Netns, Progress: r.Progress}, []string{r.Budget})
	if err != nil || len(ms) != 1 {
		return atlas.Prop{}, fmt.Errorf("measuring the %s budget: %v", r.Budget, err)
	}
	m := ms[0]
	prop := atlas.Prop{Name: atlas.BudgetProperty(r.Budget), Value: m.Text()}
	if n := len(m.Steps); n > 0 && m.Steps[n-1].Dir != "" && r.Rel != nil {
		prop.Evidence = r.Rel(filepath.Dir(m.Steps[n-1].Dir))
	}
	switch {
	case m.Failed != "":
		return prop, nil
	case m.Below:
		prop.Span = &atlas.Span{Lo: 0, Hi: m.Past}
	case m.Above:
		prop.Span = &atlas.Span{Lo: m.Within}
	default:
		prop.Span = &atlas.Span{Lo: m.Within, Hi: m.Past}
	}
	switch {
	case m.Disagree > 0:
		prop.Timing = fmt.Sprintf("%d of its %d runs disagreed near the edge", m.Disagree, m.Runs)
	case m.Unresolved:
		prop.Timing = "not resolved to its resolution: the runs' start-ups wandered"
	}
	return prop, nil
}
