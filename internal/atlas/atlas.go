package atlas

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"path"
	"path/filepath"
	"sort"

	"github.com/instrlab/instrlab/internal/cli"
	"github.com/instrlab/instrlab/internal/evidence"
	"github.com/instrlab/instrlab/internal/table"
)

// ErrMismatch reports evidence that cannot be merged: sweeps of different
// probe matrices or properties.
var ErrMismatch = errors.New("sweeps cannot be merged")

// A Timeline is one client's version history as a sweep saw it.
//
// Client is the client's name (-client codex), which spans the versions:
// its key is "name", and was "client" before atlas.v2.json
// (UnmarshalJSON), the key that always holds name@version now.
type Timeline struct {
	Client   string `json:"name"`
	Selector string `json:"selector"`
	// Versions are the published versions selected, oldest first.
	Versions []string `json:"versions"`
	// Released is the day each of Versions was published (YYYY-MM-DD,
	// UTC), as npm's registry says when the sweep listed them; a version
	// it gives no date for has none.
	Released map[string]string `json:"released,omitempty"`
	// Points are every probe, first attempts in version order, then
	// confirmations.
	Points  []Point  `json:"points"`
	Changes []Change `json:"changes"`
	// Races are neighbouring versions whose values differ only where a
	// value is timing-sensitive (Prop.Timing): shown, never change points.
	Races    []Change  `json:"races,omitempty"`
	Segments []Segment `json:"segments"`
	// Ran counts the distinct versions probed (each an install);
	// CouldNotRun those of them the adapter could not drive.
	Ran         int `json:"versions_run"`
	CouldNotRun int `json:"could_not_run"`
	// Sweep says when and by which command this client was swept, and
	// whether that sweep was stopped before it finished: an atlas merged
	// from the sweeps of several clients keeps each one's.
	Sweep SweepInfo `json:"sweep"`
}

// SweepInfo is when and how a timeline was swept.
type SweepInfo struct {
	Date    string `json:"date"`
	Command string `json:"command"`
	Partial bool   `json:"partial,omitempty"`
}

// NewTimeline computes a timeline's changes and segments from its points.
// A change whose neighbours' second probes disagree with their first is
// marked flaky; one whose both second probes agree, confirmed.
func NewTimeline(client, selector string, versions []string, points []Point) Timeline {
	t := Timeline{Client: client, Selector: selector, Versions: versions, Points: points}
	t.Changes = changes(versions, points)
	t.Races = raceChanges(versions, points)
	t.Segments = segments(versions, points)
	first, second := map[string]Point{}, map[string]Point{}
	for _, p := range points {
		if p.Attempt == 2 {
			second[p.Version] = p
		} else {
			first[p.Version] = p
			if !p.Ran() {
				t.CouldNotRun++
			}
		}
	}
	t.Ran = len(first)
	for i, c := range t.Changes {
		a, aok := second[c.Before]
		b, bok := second[c.First]
		switch {
		case !aok || !bok:
		case a.Props.Same(first[c.Before].Props) && b.Props.Same(first[c.First].Props):
			t.Changes[i].Confirmed = true
		default:
			t.Changes[i].Flaky = true
			t.Changes[i].Note = "a second probe of a neighbour gave other values: " + flakyNote(first, second, c)
		}
		if !c.Exact {
			n := "the change lies in the " + table.Plural(c.Between, "version") + " between, "
			if t.Changes[i].Note != "" {
				n += "; "
			}
			t.Changes[i].Note = n + skippedNote(versions, first, c) + t.Changes[i].Note
		}
	}
	return t
}

func flakyNote(first, second map[string]Point, c Change) string {
	var out string
	for _, v := range []string{c.Before, c.First} {
		if d := diff(first[v].Props, second[v].Props); len(d) > 0 {
			out += v + " " + d[0].String() + " "
		}
	}
	return out
}

// skippedNote says why versions between a change's neighbours were not
// run.
func skippedNote(versions []string, first map[string]Point, c Change) string {
	in := false
	cnr := 0
	for _, v := range versions {
		if v == c.Before {
			in = true
			continue
		}
		if v == c.First {
			break
		}
		if in {
			if p, ok := first[v]; ok && !p.Ran() {
				cnr++
			}
		}
	}
	if cnr > 0 {
		return fmt.Sprintf("%d of which could not run", cnr)
	}
	return "not run"
}

// An Atlas is the result of a sweep: a timeline per client.
type Atlas struct {
	// Date is when the sweep ran (YYYY-MM-DD); Command the command line
	// that made it (secrets never appear in it: a sweep takes none).
	Date    string `json:"date"`
	Command string `json:"command"`
	// Matrix names the probe matrix and Properties the properties read,
	// in order; atlases merge only when both agree.
	Matrix     string   `json:"matrix"`
	Properties []string `json:"properties"`
	Shard      string   `json:"shard,omitempty"`
	// Partial is set when the sweep was stopped before it finished: a
	// change between two probed versions that are not neighbours is not
	// yet narrowed (its Exact is false), and later clients are missing.
	Partial   bool       `json:"partial,omitempty"`
	Timelines []Timeline `json:"timelines"`
}

// UnmarshalJSON reads a timeline, and its client's name under its key
// before atlas.v2.json, "client", so that an older sweep still reads.
func (t *Timeline) UnmarshalJSON(b []byte) error {
	type plain Timeline
	var v struct {
		plain
		Client string `json:"client"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*t = Timeline(v.plain)
	if t.Client == "" {
		t.Client = v.Client
	}
	return nil
}

// MaxFile is the most Read reads of an atlas file: the committed atlas's
// is 400 KB.
const MaxFile = 256 << 20

// Read reads an atlas file, at most MaxFile bytes of it, giving up when
// ctx is done (a FIFO nobody writes).
func Read(ctx context.Context, path string) (*Atlas, error) {
	b, err := cli.ReadFile(ctx, path, MaxFile)
	if err != nil {
		return nil, fmt.Errorf("reading atlas: %w", err)
	}
	var a Atlas
	if err := json.Unmarshal(b, &a); err != nil {
		return nil, fmt.Errorf("reading atlas %s: %w", path, err)
	}
	return &a, nil
}

// ReadSweeps reads the atlases of sweep directories and merges them, each
// one's evidence paths rebased so they resolve from linkFrom (the
// directory a site is written to), or, without linkFrom and with several
// directories, from the working directory. Sweeps that cannot be merged
// are the user's mistake: a cli.UsageError that says why (ErrMismatch's).
func ReadSweeps(ctx context.Context, dirs []string, linkFrom string) (*Atlas, error) {
	var as []*Atlas
	for _, d := range dirs {
		a, err := Read(ctx, evidence.SweepDir(d).Atlas())
		if err != nil {
			return nil, err
		}
		switch {
		case linkFrom != "":
			rel, err := linkPath(linkFrom, d)
			if err != nil {
				return nil, err
			}
			a.Rebase(rel)
		case len(dirs) > 1:
			a.Rebase(filepath.ToSlash(d))
		}
		as = append(as, a)
	}
	a, err := Merge(as)
	if errors.Is(err, ErrMismatch) {
		return nil, cli.UsageError{Msg: err.Error()}
	}
	return a, err
}

// linkPath is dir as a slash path relative to from, both made absolute.
func linkPath(from, dir string) (string, error) {
	f, err := filepath.Abs(from)
	if err != nil {
		return "", err
	}
	d, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	rel, err := filepath.Rel(f, d)
	return filepath.ToSlash(rel), err
}

// Merge joins the atlases of a sweep's shards into one: per client, the
// union of versions and points, with changes and segments computed again
// over the whole, so a change that falls between two shards is found
// too. Atlases of different probe matrices or properties are refused.
func Merge(as []*Atlas) (*Atlas, error) {
	if len(as) == 0 {
		return nil, fmt.Errorf("%w: no atlas given", ErrMismatch)
	}
	out := &Atlas{Date: as[0].Date, Command: as[0].Command, Matrix: as[0].Matrix, Properties: as[0].Properties}
	for _, a := range as {
		out.Partial = out.Partial || a.Partial
	}
	type acc struct {
		selector string
		sweep    SweepInfo
		versions map[string]bool
		released map[string]string
		points   map[string]Point
	}
	byClient := map[string]*acc{}
	var order []string
	for i, a := range as {
		if a.Matrix != out.Matrix || fmt.Sprint(a.Properties) != fmt.Sprint(out.Properties) {
			return nil, fmt.Errorf("%w: atlas %d has matrix %q and properties %v, atlas 1 has %q and %v",
				ErrMismatch, i+1, a.Matrix, a.Properties, out.Matrix, out.Properties)
		}
		if a.Date > out.Date {
			out.Date = a.Date
		}
		for _, t := range a.Timelines {
			c, ok := byClient[t.Client]
			if !ok {
				sw := t.Sweep
				if sw.Command == "" { // an atlas written before timelines said
					sw = SweepInfo{Date: a.Date, Command: a.Command}
				}
				c = &acc{selector: t.Selector, sweep: sw, versions: map[string]bool{}, released: map[string]string{}, points: map[string]Point{}}
				byClient[t.Client] = c
				order = append(order, t.Client)
			}
			if t.Sweep.Partial || a.Partial && t.Sweep.Command == "" {
				c.sweep.Partial = true
			}
			for _, v := range t.Versions {
				c.versions[v] = true
			}
			maps.Copy(c.released, t.Released)
			for _, p := range t.Points {
				c.points[fmt.Sprint(p.Attempt, " ", p.Version)] = p
			}
		}
	}
	sort.Strings(order)
	for _, name := range order {
		c := byClient[name]
		var vs []string
		for v := range c.versions {
			vs = append(vs, v)
		}
		vs = Sort(vs)
		var ps []Point
		for _, p := range c.points {
			ps = append(ps, p)
		}
		ps = orderPoints(vs, ps)
		t := NewTimeline(name, c.selector, vs, ps)
		t.Sweep = c.sweep
		t.Released = ReleasedOf(vs, c.released)
		out.Timelines = append(out.Timelines, t)
		if c.sweep.Command != out.Timelines[0].Sweep.Command {
			// Several sweeps: each client's section names its own.
			out.Command = ""
		}
	}
	return out, nil
}

// ReleaseDate is the day version v was released, as npm said when it was
// swept, or "not recorded".
func (t Timeline) ReleaseDate(v string) string {
	if d, ok := t.Released[v]; ok {
		return d
	}
	return "not recorded"
}

// releasedSpan is ", released D1 to D2" for the first and last of t's
// versions, or "" when either date is not recorded.
func (t Timeline) releasedSpan() string {
	d1, ok1 := t.Released[first(t.Versions)]
	d2, ok2 := t.Released[last(t.Versions)]
	if !ok1 || !ok2 {
		return ""
	}
	return ", released " + d1 + " to " + d2
}

// ReleasedOf is the release dates of versions, from all; nil when none
// has one.
func ReleasedOf(versions []string, all map[string]string) map[string]string {
	var out map[string]string
	for _, v := range versions {
		if d, ok := all[v]; ok {
			if out == nil {
				out = map[string]string{}
			}
			out[v] = d
		}
	}
	return out
}

// orderPoints sorts first attempts in version order, then confirmations.
func orderPoints(versions []string, ps []Point) []Point {
	order := map[string]int{}
	for i, v := range versions {
		order[v] = i
	}
	sort.SliceStable(ps, func(i, j int) bool {
		if ps[i].Attempt != ps[j].Attempt {
			return ps[i].Attempt < ps[j].Attempt
		}
		return order[ps[i].Version] < order[ps[j].Version]
	})
	return ps
}

// Shard returns the k-th of n contiguous parts of versions (k from 1).
// Every version is in exactly one part, and the parts depend only on the
// list, so shards run anywhere cover the list between them.
func Shard(versions []string, k, n int) ([]string, error) {
	if n < 1 || k < 1 || k > n {
		return nil, fmt.Errorf("shard %d/%d: want 1 <= k <= n", k, n)
	}
	lo, hi := (k-1)*len(versions)/n, k*len(versions)/n
	return versions[lo:hi], nil
}

// Rebase prefixes every evidence path in a with dir, so that the atlases
// of several sweep directories, merged, still link to their runs.
func (a *Atlas) Rebase(dir string) {
	a.mapEvidence(func(p string) string { return path.Join(dir, p) })
}

// mapEvidence replaces every evidence path of a (each point's run
// directory and each property's) with to's, and computes the timelines
// again from the points.
func (a *Atlas) mapEvidence(to func(string) string) {
	for ti := range a.Timelines {
		t := &a.Timelines[ti]
		for pi := range t.Points {
			p := &t.Points[pi]
			if p.Dir != "" {
				p.Dir = to(p.Dir)
			}
			p.Props = p.Props.mapped(to)
		}
		sw, released := t.Sweep, t.Released
		*t = NewTimeline(t.Client, t.Selector, t.Versions, t.Points)
		t.Sweep, t.Released = sw, released
	}
}

// IsSweep reports whether every one of dirs is a sweep's output
// directory (it holds an atlas).
func IsSweep(dirs []string) bool {
	for _, d := range dirs {
		if _, err := os.Stat(evidence.SweepDir(d).Atlas()); err != nil {
			return false
		}
	}
	return len(dirs) > 0
}
