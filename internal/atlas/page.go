package atlas

import (
	"fmt"
	"html/template"
	"io"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/instrlab/instrlab/internal/report"
	"github.com/instrlab/instrlab/internal/table"
	"github.com/instrlab/instrlab/internal/untrusted"
)

// HTML writes the atlas as one self-contained page, the report's page
// with a section per client: a timeline drawn as inline SVG (versions
// across in published order, a lane per property, a band per value, the
// change points marked with their first version, the versions that could
// not run hatched and crossed), then the changes and the could-not-run
// list. Every band and mark links to its evidence directory, relative to
// the sweep's output directory. The clients' text is untrusted: controls
// are shown as escapes and html/template escapes the rest.
func (a *Atlas) HTML(w io.Writer) error {
	made := fmt.Sprintf("Made on %s by %s%s, with", show(a.Date), show(a.Command), map[bool]string{true: " (shard " + show(a.Shard) + ")"}[a.Shard != ""])
	if a.Command == "" {
		made = "Merged from the sweeps named under each client, all with"
	}
	p := report.Page{
		Title: "Atlas",
		Lead: fmt.Sprintf("%s the matrix %s. Every value is read from the recorded evidence of an offline run; versions between two versions run with the same values are taken to share them.",
			made, show(a.Matrix)),
		Style: atlasStyle,
	}
	for _, t := range a.Timelines {
		v := newClientView(a.Properties, t)
		if a.Command == "" {
			v.Summary = fmt.Sprintf("Swept on %s by %s%s. %s", show(t.Sweep.Date), show(t.Sweep.Command),
				map[bool]string{true: ", stopped before it finished (changes not yet narrowed lie between their versions; the same command resumes it)"}[t.Sweep.Partial], v.Summary)
		}
		body, err := renderClient(v)
		if err != nil {
			return err
		}
		p.Sections = append(p.Sections, report.Section{ID: "client-" + show(t.Client), Title: show(t.Client), Body: body})
	}
	return report.WritePage(w, p)
}

// Geometry of a timeline, in SVG user units.
const (
	laneLeft  = 130.0 // lane names to the left of it
	plotWidth = 1000.0
	labelRows = 3 // change labels are staggered over this many rows
	labelRowH = 13.0
	laneH     = 24.0
	charW     = 6.4 // the width of one character of the band text, about
)

type clientView struct {
	Client, Summary string
	Width, Height   float64
	PlotTop, PlotH  float64
	Lanes           []lane
	Marks           []mark
	Axis            []axisLabel
	Changes         []changeRow
	// Dated is whether the timeline has release dates: the changes
	// table has their column only then.
	Dated       bool
	CouldNotRun []cnrRow
}

type lane struct {
	Name  string
	Y     float64 // top
	Bands []band
	Ticks []tick // the runs lane only
}

type band struct {
	X, W  float64
	Class string
	Text  string // what fits in the band; the whole value is in Title
	Title string
	Href  string
}

type tick struct {
	X, W     float64
	CouldNot bool
	Title    string
	Href     string
	GlyphX   float64
}

type mark struct {
	X, LabelY float64
	Anchor    string
	Label     string
	Title     string
	Href      string
	Exact     bool
	SpanX     float64 // the start of the versions the change may lie in, when not exact
	Hits      []float64
}

type axisLabel struct {
	X      float64
	Anchor string
	Text   string
}

type changeRow struct {
	First, Released       string
	Before                string
	FirstHref, BeforeHref string
	Exact                 bool
	What                  []string
	Status                string
}

type cnrRow struct {
	Version, Reason, Href string
}

func newClientView(props []string, t Timeline) clientView {
	n := len(t.Versions)
	index := map[string]int{}
	for i, v := range t.Versions {
		index[v] = i
	}
	x := func(i int) float64 { return laneLeft + plotWidth*float64(i)/float64(max(n, 1)) }
	dirs := map[string]string{}
	for _, p := range t.Points {
		if p.Attempt <= 1 {
			dirs[p.Version] = p.Dir
		}
	}
	plotTop := labelRows*labelRowH + 6
	v := clientView{
		Client: show(t.Client), Width: laneLeft + plotWidth + 10, PlotTop: plotTop, Dated: len(t.Released) > 0,
		Summary: fmt.Sprintf("%s selected (%s: %s to %s%s); %s run, %d of them could not run; %s.",
			table.Plural(n, "version"), show(t.Selector), show(first(t.Versions)), show(last(t.Versions)), t.releasedSpan(), table.Plural(t.Ran, "version"), t.CouldNotRun, table.Plural(len(t.Changes), "change point")),
	}
	for li, name := range props {
		l := lane{Name: show(name), Y: plotTop + float64(li)*laneH}
		values := map[string]int{}
		for si := 0; si < len(t.Segments); {
			s := t.Segments[si]
			val, ev := "not measured", ""
			for _, p := range s.Props {
				if p.Name == name {
					val, ev = p.Value, p.Evidence
				}
			}
			// One band over the segments that agree on this property.
			to, probed := s.To, len(s.Probed)
			for si++; si < len(t.Segments) && t.Segments[si].Props.Get(name) == s.Props.Get(name); si++ {
				to, probed = t.Segments[si].To, probed+len(t.Segments[si].Probed)
			}
			if _, ok := values[val]; !ok {
				values[val] = len(values)
			}
			x0, x1 := x(index[s.From]), x(index[to]+1)
			span := show(s.From)
			if to != s.From {
				span += " – " + show(to)
			}
			l.Bands = append(l.Bands, band{X: x0, W: x1 - x0, Class: fmt.Sprintf("v%d", values[val]%6),
				Text: fit(show(val), x1-x0), Href: href(ev),
				Title: fmt.Sprintf("%s: %s, versions %s (%s run); evidence %s", show(name), show(val), span, fmt.Sprint(probed), show(orNone(ev)))})
		}
		v.Lanes = append(v.Lanes, l)
	}
	runs := lane{Name: "versions run", Y: plotTop + float64(len(props))*laneH}
	step := plotWidth / float64(max(n, 1))
	for _, p := range t.Points {
		i, ok := index[p.Version]
		if !ok || p.Attempt > 1 {
			continue
		}
		w := min(max(step/2, 2), 6)
		tk := tick{X: x(i) + (step-w)/2, W: w, GlyphX: x(i) + step/2, Href: href(p.Dir), Title: show(p.Version) + " run"}
		if !p.Ran() {
			tk.CouldNot, tk.W = true, max(step, 4)
			tk.X = x(i) + (step-tk.W)/2
			tk.Title = show(p.Version) + ": could not run: " + show(p.CouldNotRun)
			v.CouldNotRun = append(v.CouldNotRun, cnrRow{Version: show(p.Version), Reason: show(p.CouldNotRun), Href: href(p.Dir)})
		}
		runs.Ticks = append(runs.Ticks, tk)
	}
	v.Lanes = append(v.Lanes, runs)
	v.PlotH = float64(len(v.Lanes)) * laneH
	v.Height = plotTop + v.PlotH + 20
	v.Axis = []axisLabel{{X: laneLeft, Anchor: "start", Text: show(first(t.Versions))}, {X: laneLeft + plotWidth, Anchor: "end", Text: show(last(t.Versions))}}
	for ci, c := range t.Changes {
		m := mark{X: x(index[c.First]), Exact: c.Exact, Href: href(dirs[c.First]), LabelY: labelRowH * float64(ci%labelRows+1), Anchor: "middle"}
		m.SpanX = x(index[c.Before] + 1)
		m.Label = show(c.First)
		if !c.Exact {
			m.Label = "≤ " + m.Label
		}
		switch {
		case m.X < laneLeft+40:
			m.Anchor = "start"
		case m.X > laneLeft+plotWidth-40:
			m.Anchor = "end"
		}
		row := changeRow{First: show(c.First), Released: t.ReleaseDate(c.First), Before: show(c.Before), FirstHref: href(dirs[c.First]), BeforeHref: href(dirs[c.Before]), Exact: c.Exact, Status: status(c)}
		for _, pc := range c.Props {
			row.What = append(row.What, show(pc.String()))
			for li, name := range props {
				if name == pc.Name {
					m.Hits = append(m.Hits, plotTop+float64(li)*laneH)
				}
			}
		}
		released := ""
		if v.Dated {
			released = "released " + row.Released + "; "
		}
		m.Title = fmt.Sprintf("first version %s (%slast before it: %s): %s; %s", row.First, released, row.Before, strings.Join(row.What, "; "), row.Status)
		v.Marks = append(v.Marks, m)
		v.Changes = append(v.Changes, row)
	}
	return v
}

// status says whether a change was confirmed, and why it is not exact.
func status(c Change) string {
	s := "not confirmed"
	switch {
	case c.Confirmed:
		s = "confirmed: both neighbours run twice"
	case c.Flaky:
		return "flaky: " + show(c.Note)
	}
	if !c.Exact && c.Note != "" {
		s += "; " + show(c.Note)
	}
	return s
}

// show makes a client's or server's text safe to show on one line.
func show(s string) string { return untrusted.EscapeLine(s) }

// fit is as much of s as fits in a band w wide, or "" when too little.
func fit(s string, w float64) string {
	n := int((w - 8) / charW)
	switch {
	case utf8.RuneCountInString(s) <= n:
		return s
	case n < 4:
		return ""
	}
	return string([]rune(s)[:n-1]) + "…"
}

func orNone(s string) string {
	if s == "" {
		return "not recorded"
	}
	return s
}

var clientTemplate = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("client").Funcs(template.FuncMap{
		"f":   func(x float64) string { return fmt.Sprintf("%.1f", x) },
		"mid": func(y float64) float64 { return y + laneH/2 + 4 },
		"add": func(a, b float64) float64 { return a + b },
		"sub": func(a, b float64) float64 { return a - b },
	}).Parse(clientSource))
})

func renderClient(v clientView) (template.HTML, error) {
	var b strings.Builder
	if err := clientTemplate().Execute(&b, v); err != nil {
		return "", err
	}
	return template.HTML(b.String()), nil
}

// href is target as a link of the page, "" (no link) when untrusted.Href
// refuses it: the atlas's evidence paths come from a file anyone may edit.
func href(target string) string {
	h, _ := untrusted.Href(target)
	return h
}
