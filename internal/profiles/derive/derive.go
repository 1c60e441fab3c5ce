package derive

import (
	"fmt"
	"sort"
	"strings"

	"github.com/instrlab/instrlab/internal/client"
	"github.com/instrlab/instrlab/internal/matrix"
	"github.com/instrlab/instrlab/internal/profiles"
	"github.com/instrlab/instrlab/internal/table"
	"github.com/instrlab/instrlab/lab"
)

// Options say how Profiles names its evidence.
type Options struct {
	// Ref is the evidence entry's ref: where the run's summary is kept
	// (a path in the repository, or the evidence directory).
	Ref string
}

// Profiles derives one client profile per client@version in results, from
// what the evidence of its runs shows and nothing else: the cap and marker
// from runs whose text was cut, the cap setting from runs that set it, the
// rendering from the recorded request, the handshake from the lab's message
// log, the startup wait from runs with a slow server. What the runs do not
// show is listed under Unmeasured. Results need their Dir: the run records
// and recorded requests are read again.
func Profiles(results []matrix.Result, o Options) ([]profiles.Profile, error) {
	byClient := map[string][]run{}
	var order []string
	for _, r := range results {
		if r.Status != "ok" {
			continue
		}
		rec, err := matrix.ReadRecord(r.Dir)
		if err != nil {
			return nil, err
		}
		if _, ok := byClient[r.Client]; !ok {
			order = append(order, r.Client)
		}
		byClient[r.Client] = append(byClient[r.Client], run{Result: r, Row: rec.Row})
	}
	sort.Strings(order)
	var out []profiles.Profile
	for _, id := range order {
		p, err := derive(id, byClient[id], o)
		if err != nil {
			return nil, fmt.Errorf("profile of %s: %w", id, err)
		}
		out = append(out, p)
	}
	return out, nil
}

// A run is one finished run: its result and its resolved row.
type run struct {
	matrix.Result
	Row matrix.Row
}

// text is the server text of the run's row in era, or "".
func (r run) text(era string) string {
	in, err := lab.ParseInstructions(r.Row.Instr)
	if err != nil || !in.Present() {
		return ""
	}
	t, err := in.For(era)
	if err != nil {
		return ""
	}
	return t.Text
}

// plain reports whether the run changes nothing but the server's text and
// era: no environment, flags or delays.
func (r run) plain() bool {
	return r.Row.Plain() && r.First != nil
}

func derive(id string, runs []run, o Options) (profiles.Profile, error) {
	spec, err := client.ParseSpec(id)
	if err != nil {
		return profiles.Profile{}, err
	}
	p := profiles.Profile{Client: spec.Name, Name: displayName(spec.Name), Version: spec.Version}
	var un []string
	p.Instructions, un = deriveLimit(runs)
	p.Unmeasured = append(p.Unmeasured, un...)
	p.Render, un, err = deriveRender(runs)
	if err != nil {
		return profiles.Profile{}, err
	}
	p.Unmeasured = append(p.Unmeasured, un...)
	p.ToolDescriptions = profiles.Limit{Unit: profiles.UnitCodepoint, Note: "Not measured: the run's tool descriptions are short."}
	p.Unmeasured = append(p.Unmeasured, "the cap and marker on tool descriptions")
	p.Handshake, un = deriveHandshake(runs)
	p.Unmeasured = append(p.Unmeasured, un...)
	p.Startup, un = deriveStartup(runs)
	p.Unmeasured = append(p.Unmeasured, un...)
	p.Unmeasured = append(p.Unmeasured, "several servers in one session: separator, order, shared budget", "interactive sessions")
	p.Evidence = []profiles.Evidence{{Kind: "instrlab-run", Ref: o.Ref, Date: runDate(runs), Runs: len(runs), Says: says(p, runs)}}
	return p, p.Validate()
}

// displayName turns "claude-code" into "Claude Code".
func displayName(name string) string {
	words := strings.Split(name, "-")
	for i, w := range words {
		if w != "" {
			words[i] = strings.ToUpper(w[:1]) + w[1:]
		}
	}
	return strings.Join(words, " ")
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
		capText = fmt.Sprintf("cut at %s characters, then %q", table.Num(l.Cap), l.Marker)
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
	return fmt.Sprintf("instrlab run, offline against the fake API: %d runs of %d rows; %s%s; %s; %s on stdio.",
		len(runs), len(rows), capText, setting, p.Render.Placement, probe)
}
