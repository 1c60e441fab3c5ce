package matrix

import (
	"fmt"
	"os"
	"slices"
	"time"

	"github.com/instrlab/instrlab/internal/client"
	"github.com/instrlab/instrlab/internal/client/clients"
	"github.com/instrlab/instrlab/internal/table"
)

// For is the matrix run uses when none is named: the seed matrix when
// only the default client runs (the seed's experiment), else the
// cross-client matrix.
func For(cs []client.Client) *Matrix {
	for _, c := range cs {
		if c.Spec().Name != clients.Default.Name {
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

// Save keeps the runner's own measurements of the run (an output
// directory's stats.json): wall time, the client processes' summed wall
// time and CPU time (in all and per client), the runner's setup and
// teardown, and cpu, the runner process's CPU time (the fake APIs and the
// analysis; the clients and lab servers are other processes).
func (st Stats) Save(path string, cpu time.Duration) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("writing stats: %w", err)
	}
	by := map[string]float64{}
	for who, d := range st.ClientCPUBy {
		by[who] = d.Seconds()
	}
	err = table.JSON(f, map[string]any{
		"runs": st.Runs, "skipped": st.Skipped, "failed": st.Failed, "interrupted": st.Interrupted,
		"wall_s": st.Wall.Seconds(), "client_s": st.ClientTime.Seconds(), "runner_setup_teardown_s": st.RunnerTime.Seconds(),
		"client_cpu_s": st.ClientCPU.Seconds(), "client_cpu_s_by_client": by,
		"runner_cpu_s": cpu.Seconds(), "runner_cpu_share_of_wall": cpu.Seconds() / st.Wall.Seconds(),
	})
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// Line is the one-line account of the run printed at its end, with cpu
// the runner process's CPU time.
func (st Stats) Line(cpu time.Duration) string {
	return fmt.Sprintf("%d runs (%d skipped, %d failed, %d interrupted) in %s; client processes %s in all, client CPU %.1fs; runner setup+teardown %s in all; runner CPU %s (%.1f%% of wall)",
		st.Runs, st.Skipped, st.Failed, st.Interrupted, st.Wall.Round(time.Millisecond), st.ClientTime.Round(time.Millisecond), st.ClientCPU.Seconds(),
		st.RunnerTime.Round(time.Millisecond), cpu.Round(time.Millisecond), 100*cpu.Seconds()/st.Wall.Seconds())
}
