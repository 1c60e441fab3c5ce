package matrix

import (
	"fmt"
	"os"
	"slices"

	"github.com/instrlab/instrlab/internal/client"
	"github.com/instrlab/instrlab/internal/table"
)

// For is the matrix run uses when none is named: the seed matrix when
// only the default client (def: the seed's experiment is its) runs, else
// the cross-client matrix.
func For(cs []client.Client, def client.Spec) *Matrix {
	for _, c := range cs {
		if c.Spec().Name != def.Name {
			return Cross()
		}
	}
	return Seed()
}

// Select keeps the named rows (all when none), in the order named, and
// with repeats above 0 makes every row run that many times. A baseline
// that is not kept is dropped. A name that is no row is an error, and m
// is then unchanged.
func (m *Matrix) Select(names []string, repeats int) error {
	if len(names) > 0 {
		var rows []Row
		for _, n := range names {
			found := false
			for _, r := range m.Rows {
				if r.Name == n {
					rows, found = append(rows, r), true
				}
			}
			if !found {
				return fmt.Errorf("%q: no such row in matrix %q", n, m.Name)
			}
		}
		m.Rows = rows
		if !slices.ContainsFunc(rows, func(r Row) bool { return r.Name == m.Baseline }) {
			m.Baseline = ""
		}
	}
	if repeats > 0 {
		m.Repeats = repeats
		for i := range m.Rows {
			m.Rows[i].Repeats = 0
		}
	}
	return nil
}

// PlannedRequests bounds the model requests of running m against cs:
// each run makes at most max_turns requests (at least one).
func (m *Matrix) PlannedRequests(cs []client.Client) int {
	n := 0
	for _, c := range cs {
		for _, row := range m.Rows {
			if !row.For(c.Spec().Name) {
				continue
			}
			row = m.Resolved(row)
			n += row.Repeats * max(row.MaxTurns, 1)
		}
	}
	return n
}

// Save writes m as a matrix file (an output directory's matrix.json).
func (m *Matrix) Save(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("writing the matrix: %w", err)
	}
	if err := table.JSON(f, m); err != nil {
		f.Close()
		return fmt.Errorf("writing the matrix: %w", err)
	}
	return f.Close()
}
