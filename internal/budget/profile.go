package budget

import (
	"context"
	"fmt"
	"maps"
	"os"

	"github.com/instrlab/instrlab/internal/profiles"
)

// Profile is m as a profile carries it, measured on date by command.
func (m Measurement) Profile(date, command string) profiles.Budget {
	return profiles.Budget{Name: m.Budget, Unit: m.Unit, Within: m.Within, Past: m.Past, Below: m.Below, Above: m.Above,
		PastBudget: m.PastBudget, Late: m.Late, Settings: m.Settings, Way: m.Way, Model: m.Model, Names: m.Names, Runs: m.Runs, MaxLoad: m.MaxLoad, Date: date, Command: command,
		Counts: string(m.Counts), CountsNote: m.CountsNote}
}

// UpdateProfile writes the measurements of the profile's client version
// into the profile file at path, each in place of one of the same budget,
// way and settings: a measurement that failed or of another client version
// is refused, and the file is left as it was.
func UpdateProfile(ctx context.Context, path string, ms []Measurement, date, command string) error {
	p, err := profiles.ReadFile(ctx, path)
	if err != nil {
		return err
	}
	for _, m := range ms {
		if m.Client != p.ID() {
			return fmt.Errorf("%s is the profile of %s, not %s", path, p.ID(), m.Client)
		}
		if m.Failed != "" {
			return fmt.Errorf("%s budget of %s not measured (%s): the profile is left as it was", m.Budget, m.Client, m.Failed)
		}
		b := m.Profile(date, command)
		if b.Model == p.Model {
			b.Model = "" // the profile's own
		}
		replaced := false
		for i, old := range p.Budgets {
			if old.Name == b.Name && old.Way == b.Way && maps.Equal(old.Settings, b.Settings) {
				if b.Second == nil && old.Second != nil && old.Second.Within > b.Within {
					b.Second = old.Second // measured apart (a second limit), past this one still
				}
				p.Budgets[i], replaced = b, true
			}
		}
		if !replaced {
			p.Budgets = append(p.Budgets, b)
		}
	}
	out, err := profiles.Encode(p)
	if err != nil {
		return err
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, out, 0o644); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("writing profile: %w", err)
	}
	return os.Rename(tmp, path)
}
