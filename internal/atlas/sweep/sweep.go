package sweep

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/instrlab/instrlab/internal/atlas"
	"github.com/instrlab/instrlab/internal/cli"

	"github.com/instrlab/instrlab/internal/client"
	"github.com/instrlab/instrlab/internal/evidence"
	"github.com/instrlab/instrlab/internal/load"
	"github.com/instrlab/instrlab/internal/matrix"
	"github.com/instrlab/instrlab/internal/matrix/runner"
)

// A Supporter is a client adapter that knows which versions it can drive.
// Sweep asks it before installing a version; a version it refuses is
// recorded as could not run, with its reason, and never installed.
type Supporter interface {
	Supports(version string) error
}

// A Sweep probes versions of clients into one output directory: the runs
// of every version under Out as instrlab run lays them out (so instrlab
// report reads them too), confirmations under Out/confirm, and each
// probed version's point under Out/points, written as soon as it is known
// so a sweep that is stopped resumes where it stopped.
type Sweep struct {
	Out string
	// Lab is the executable the clients start as "Lab serve lab ...".
	Lab     string
	Jobs    int
	Timeout time.Duration
	Netns   bool
	// Grid and Confirm are passed to Bisect.
	Grid    int
	Confirm bool
	// RepeatSensitive runs a probe row whose result is timing-sensitive
	// again until it has this many runs (runner.Runner.RepeatSensitive):
	// its properties are then rates.
	RepeatSensitive int
	// Gate bounds the runs at once by how long their servers take to
	// start (load.Gate), across every version swept.
	Gate *load.Gate
	// Budgets are measured as numbers on every version probed, by
	// MeasureBudget (budget.Sweeper), each a property whose change
	// point is a change of the number beyond its resolution (Span).
	Budgets       []string
	MeasureBudget func(ctx context.Context, r BudgetRun) (atlas.Prop, error)
	// Matrix is the probe matrix; nil means the built-in atlas matrix.
	Matrix *matrix.Matrix
	// NewClient makes the adapter for name@version.
	NewClient func(spec string) (client.Client, error)
	// Released gives the day each published version of a client was
	// released (npm.Released), kept in its timeline; nil keeps none, and
	// an error is said on Progress and keeps none.
	Released func(ctx context.Context, client string) (map[string]string, error)
	Progress io.Writer
}

// Timeline sweeps one client over versions (oldest first), the ones
// selector picked, and returns its timeline.
func (s *Sweep) Timeline(ctx context.Context, name, selector string, versions []string) (atlas.Timeline, error) {
	if s.Matrix == nil {
		s.Matrix = defaultMatrix()
	}
	known, err := s.readPoints(ctx, name)
	if err != nil {
		return atlas.Timeline{}, err
	}
	if len(known) > 0 {
		fmt.Fprintf(s.progress(), "%s: resuming with %d versions already run\n", name, len(known))
	}
	var saveErr error
	probed := map[string]atlas.Point{} // first attempts, by version
	for _, p := range known {
		if p.Attempt != 2 {
			probed[p.Version] = p
		}
	}
	pts := atlas.Bisect(ctx, versions, func(ctx context.Context, v string, attempt int) atlas.Point {
		return s.probe(ctx, name, v, attempt, nearPoints(versions, probed, v, attempt))
	}, atlas.BisectOptions{Grid: s.Grid, Confirm: s.Confirm, Known: known, OnPoint: func(p atlas.Point) {
		if p.Attempt != 2 {
			probed[p.Version] = p
		}
		if err := s.writePoint(name, p); err != nil && saveErr == nil {
			saveErr = err
		}
	}})
	if saveErr != nil {
		return atlas.Timeline{}, saveErr
	}
	if err := ctx.Err(); err != nil {
		// What was measured before the stop is a timeline too, with
		// changes not yet narrowed marked inexact.
		return atlas.NewTimeline(name, selector, versions, pts), fmt.Errorf("sweep of %s stopped (resume with the same -out): %w", name, err)
	}
	return atlas.NewTimeline(name, selector, versions, pts), nil
}

// nearPoints are the points a version's budget searches start from
// (BudgetRun.Near): its own first probe when confirming it, then the
// nearest older and the nearest newer versions that ran.
func nearPoints(versions []string, probed map[string]atlas.Point, v string, attempt int) []atlas.Point {
	var out []atlas.Point
	if p, ok := probed[v]; ok && attempt == 2 && p.Ran() {
		out = append(out, p)
	}
	i := slices.Index(versions, v)
	if i < 0 {
		return out
	}
	for _, step := range []int{-1, 1} {
		for j := i + step; j >= 0 && j < len(versions); j += step {
			if p, ok := probed[versions[j]]; ok && p.Ran() {
				out = append(out, p)
				break
			}
		}
	}
	return out
}

func (s *Sweep) progress() io.Writer {
	if s.Progress == nil {
		return io.Discard
	}
	return s.Progress
}

// probe runs the probe matrix on one version and reads its properties.
func (s *Sweep) probe(ctx context.Context, name, version string, attempt int, near []atlas.Point) atlas.Point {
	spec := name + "@" + version
	dir := evidence.SweepDir(s.Out)
	out := string(dir.Out())
	if attempt == 2 {
		out = string(dir.Confirm())
	}
	p := atlas.Point{Version: version, Attempt: attempt}
	c, err := s.NewClient(spec)
	if err != nil {
		p.CouldNotRun = err.Error()
		return p
	}
	if sup, ok := c.(Supporter); ok {
		if err := sup.Supports(version); err != nil {
			p.CouldNotRun = err.Error()
			fmt.Fprintf(s.progress(), "%s: could not run: %s\n", spec, p.CouldNotRun)
			return p
		}
	}
	fmt.Fprintf(s.progress(), "%s: running (attempt %d)\n", spec, attempt)
	r := &runner.Runner{Clients: []client.Client{c}, Matrix: s.Matrix, Out: out, Jobs: s.Jobs, Resume: true, RepeatSensitive: s.RepeatSensitive, Gate: s.Gate,
		Timeout: s.Timeout, Lab: s.Lab, Netns: s.Netns, Progress: s.progress()}
	results, _, err := r.Run(ctx)
	if err != nil {
		p.CouldNotRun = atlas.Reason(err.Error())
		fmt.Fprintf(s.progress(), "%s: could not run: %s\n", spec, p.CouldNotRun)
		return p
	}
	p.Dir = filepath.ToSlash(relPath(s.Out, filepath.Join(out, c.Spec().String())))
	rel := func(dir string) string { return filepath.ToSlash(relPath(s.Out, dir)) }
	p.Props, err = atlas.Properties(s.Matrix, results, rel)
	if err != nil {
		p.Props = nil
		p.CouldNotRun = err.Error()
		fmt.Fprintf(s.progress(), "%s: could not run: %s\n", spec, p.CouldNotRun)
		return p
	}
	for _, b := range s.Budgets {
		bp, err := s.measure(ctx, c, b, filepath.Join(out, c.Spec().String(), "budget"), rel, near)
		if err != nil {
			p.Props, p.CouldNotRun = nil, err.Error()
			return p
		}
		p.Props = append(p.Props, bp)
	}
	return p
}

// A BudgetRun is one budget to measure on one client version, as a
// property: its runs go under Out, their directories become evidence
// paths through Rel.
type BudgetRun struct {
	Client   client.Client
	Budget   string
	Out, Lab string
	Timeout  time.Duration
	Netns    bool
	Progress io.Writer
	Rel      func(dir string) string
	// Near are the budget's property on the versions next to this one,
	// nearest first (nearPoints): where its search may start.
	Near []atlas.Prop
}

// measure measures budget b of c into out as a property, starting from
// its values on the points near.
func (s *Sweep) measure(ctx context.Context, c client.Client, b, out string, rel func(string) string, near []atlas.Point) (atlas.Prop, error) {
	if s.MeasureBudget == nil {
		return atlas.Prop{}, fmt.Errorf("the %s budget: the sweep has no way to measure budgets", b)
	}
	var props []atlas.Prop
	for _, p := range near {
		if q := p.Props.Find(atlas.BudgetProperty(b)); q.Name != "" {
			props = append(props, q)
		}
	}
	p, err := s.MeasureBudget(ctx, BudgetRun{Client: c, Budget: b, Out: out, Lab: s.Lab, Timeout: s.Timeout, Netns: s.Netns, Progress: s.progress(), Rel: rel, Near: props})
	if ctx.Err() != nil {
		return atlas.Prop{}, ctx.Err()
	}
	return p, err
}

// propertyNames are the properties a sweep reads: its probe matrix's, then
// its budgets'.
func (s *Sweep) propertyNames() []string {
	names := atlas.PropertyNames(s.Matrix)
	for _, b := range s.Budgets {
		names = append(names, atlas.BudgetProperty(b))
	}
	return names
}

func relPath(base, path string) string {
	if rel, err := filepath.Rel(base, path); err == nil {
		return rel
	}
	return path
}

// writePoint saves a point with write-then-rename, so a sweep killed
// mid-write leaves the old file or none, never a torn one.
func (s *Sweep) writePoint(name string, p atlas.Point) error {
	path := evidence.SweepDir(s.Out).Point(name, p.Version, p.Attempt)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("saving the point of %s@%s: %w", name, p.Version, err)
	}
	b, err := json.MarshalIndent(p, "", "  ")
	if err != nil {
		return err
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, append(b, '\n'), 0o644); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("saving the point of %s@%s: %w", name, p.Version, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("saving the point of %s@%s: %w", name, p.Version, err)
	}
	return nil
}

// readPoints loads the points an earlier sweep into Out saved for name. A
// point that cannot be read is an error naming the file: nothing measured
// is silently dropped or redone. A point file is read bounded
// (maxPoint), giving up when ctx is done.
func (s *Sweep) readPoints(ctx context.Context, name string) ([]atlas.Point, error) {
	dir := evidence.SweepDir(s.Out).Points(name)
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading earlier points: %w", err)
	}
	var out []atlas.Point
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".json") {
			continue
		}
		b, err := cli.ReadFile(ctx, filepath.Join(dir, e.Name()), maxPoint)
		if err != nil {
			return nil, fmt.Errorf("reading earlier points: %w", err)
		}
		var p atlas.Point
		if err := json.Unmarshal(b, &p); err != nil || p.Version == "" {
			return nil, fmt.Errorf("%s: not a point (%v): remove it to run that version again", filepath.Join(dir, e.Name()), err)
		}
		out = append(out, p)
	}
	return out, nil
}

// maxPoint is the most read of one earlier point's file: a point holds a
// version's properties and their evidence paths, a few KB.
const maxPoint = 1 << 20

func defaultMatrix() *matrix.Matrix { return matrix.Atlas() }
