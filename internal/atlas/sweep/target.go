package sweep

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/instrlab/instrlab/internal/cli"

	"github.com/instrlab/instrlab/internal/atlas"

	"github.com/instrlab/instrlab/internal/client"
	"github.com/instrlab/instrlab/internal/matrix"
)

// A Target is one client and the versions of it to sweep, as in
// "claude-code@2.1.200..2.1.332".
type Target struct {
	Client   string
	Selector atlas.Selector
}

// ParseTarget parses "client", "client@all", "client@newest",
// "client@A..B" or "client@RANGE"; a bare client name means all.
func ParseTarget(s string) (Target, error) {
	name, sel, _ := strings.Cut(s, "@")
	if name == "" {
		return Target{}, fmt.Errorf("-client %q: want name@versions, as in claude-code@2.1.200..2.1.332", s)
	}
	p, err := atlas.ParseSelector(sel)
	if err != nil {
		return Target{}, fmt.Errorf("-client %q: %w", s, err)
	}
	return Target{Client: name, Selector: p}, nil
}

// Targets parses a sweep's -client values (ParseTarget), "all" standing
// for every client named in all; a client NewClient does not know is an
// error.
func (s *Sweep) Targets(specs, all []string) ([]Target, error) {
	var targets []Target
	for _, spec := range specs {
		if spec == "all" {
			for _, n := range all {
				t, _ := ParseTarget(n) // a client name alone: all its versions
				targets = append(targets, t)
			}
			continue
		}
		t, err := ParseTarget(spec)
		if err != nil {
			return nil, err
		}
		if _, err := s.NewClient(t.Client); err != nil {
			return nil, fmt.Errorf("-client: %w", err)
		}
		targets = append(targets, t)
	}
	return targets, nil
}

// Validate reports the first of s's values that cannot be, naming its
// flag, before anything is installed or run.
func (s *Sweep) Validate() error {
	switch {
	case s.Out == "":
		return errors.New("sweep: -out is required (a sweep is long and resumes from its directory)")
	case s.Jobs < 1:
		return errors.New("-j must be at least 1")
	case s.Timeout <= 0:
		return errors.New("-timeout must be positive")
	case s.Grid < 0:
		return errors.New("-grid must be 0 or more")
	case s.RepeatSensitive < 0:
		return errors.New("-repeat-sensitive must not be negative")
	}
	return nil
}

// Pinned is each target's client at its pinned version (NewClient of the
// name alone), whose budgets bound the runs at once (budget.Gate); a
// client NewClient does not know is left out.
func (s *Sweep) Pinned(targets []Target) []client.Client {
	var cs []client.Client
	for _, t := range targets {
		if c, err := s.NewClient(t.Client); err == nil {
			cs = append(cs, c)
		}
	}
	return cs
}

// Atlas sweeps every target and writes the atlas (atlas.json, atlas.md and
// atlas.html) into Out. published lists the versions npm serves of a client. With a shard,
// only this shard's contiguous part of each client's versions is swept;
// instrlab report merges the shards' atlases. A selector that matches no
// published version is the user's mistake: a cli.UsageError.
func (s *Sweep) Atlas(ctx context.Context, targets []Target, shard matrix.Shard, published func(ctx context.Context, client string) ([]string, error), command string) (*atlas.Atlas, error) {
	if s.Matrix == nil {
		s.Matrix = defaultMatrix()
	}
	a := &atlas.Atlas{Date: time.Now().UTC().Format("2006-01-02"), Command: command, Matrix: s.Matrix.Name, Properties: s.propertyNames(), Shard: shard.String()}
	type planned struct {
		t        Target
		versions []string
		released map[string]string
	}
	var plan []planned
	for _, t := range targets {
		all, err := published(ctx, t.Client)
		if err != nil {
			return nil, err
		}
		vs, err := t.Selector.Select(all)
		if errors.Is(err, atlas.ErrNoMatch) {
			return nil, cli.UsageError{Msg: fmt.Sprintf("%s@%v", t.Client, err)}
		} else if err != nil {
			return nil, fmt.Errorf("%s@%w", t.Client, err)
		}
		if shard.N > 0 {
			if vs, err = atlas.Shard(vs, shard.K, shard.N); err != nil {
				return nil, err
			}
		}
		var released map[string]string
		if s.Released != nil {
			// A date is the registry's, not a measurement: without it the
			// sweep goes on, saying why.
			all, err := s.Released(ctx, t.Client)
			if err != nil {
				fmt.Fprintf(s.progress(), "%s: no release dates kept: %v\n", t.Client, err)
			}
			released = atlas.ReleasedOf(vs, all)
		}
		plan = append(plan, planned{t, vs, released})
	}
	for _, p := range plan {
		if len(p.versions) == 0 {
			continue // this shard's part of a short list is empty
		}
		tl, err := s.Timeline(ctx, p.t.Client, p.t.Selector.String(), p.versions)
		tl.Released = p.released
		if err != nil {
			if ctx.Err() == nil {
				return a, err
			}
			// Stopped: keep what was measured, said to be partial.
			a.Partial = true
			tl.Sweep = atlas.SweepInfo{Date: a.Date, Command: a.Command, Partial: true}
			a.Timelines = append(a.Timelines, tl)
			if werr := a.Save(s.Out); werr != nil {
				return a, werr
			}
			return a, err
		}
		tl.Sweep = atlas.SweepInfo{Date: a.Date, Command: a.Command}
		a.Timelines = append(a.Timelines, tl)
	}
	return a, a.Save(s.Out)
}
