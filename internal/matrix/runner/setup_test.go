package runner

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/instrlab/instrlab/internal/cli"
	"github.com/instrlab/instrlab/internal/evidence"
	"github.com/instrlab/instrlab/internal/matrix"
	"github.com/instrlab/instrlab/lab"
)

// TestPrepare: a fresh directory gets the matrix; a second run into it is
// refused without -resume; a resume keeps the earlier matrix and may run
// fewer rows, never others; no -out is a temporary directory that cleanup
// removes.
func TestPrepare(t *testing.T) {
	out := t.TempDir()
	two := testMatrix(matrix.Row{Name: "a", Args: lab.Args{Instr: "none"}}, matrix.Row{Name: "b", Args: lab.Args{Instr: "ascii:1000"}})
	r := &Runner{Matrix: two, Out: out}
	earlier, cleanup, err := r.Prepare(t.Context())
	cleanup()
	if err != nil || earlier != nil {
		t.Fatalf("fresh directory: earlier %v, %v", earlier, err)
	}
	if _, err := matrix.Load(t.Context(), evidence.OutDir(out).Matrix()); err != nil {
		t.Fatalf("the fresh directory's matrix.json: %v", err)
	}
	for _, tc := range []struct {
		resume bool
		rows   []string
		want   string // part of the usage error; "" for none
	}{
		{false, nil, "holds an earlier run: add -resume"},
		{true, []string{"b"}, ""},
		{true, []string{"c"}, `rows "c" are not in the earlier run's matrix`},
	} {
		m := testMatrix(matrix.Row{Name: "b", Args: lab.Args{Instr: "ascii:1000"}}, matrix.Row{Name: "c", Args: lab.Args{Instr: "none"}})
		if err := m.Select(tc.rows, 0); err != nil {
			t.Fatal(err)
		}
		r := &Runner{Matrix: m, Out: out, Resume: tc.resume}
		earlier, cleanup, err := r.Prepare(t.Context())
		cleanup()
		if tc.want == "" {
			if err != nil || earlier == nil || len(earlier.Rows) != 2 || earlier.Rows[0].Name != "a" {
				t.Errorf("resume %v rows %q: earlier %+v, %v; want the earlier matrix", tc.resume, tc.rows, earlier, err)
			}
			continue
		}
		if !errors.As(err, new(cli.UsageError)) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("resume %v rows %q: %v, want a usage error with %q", tc.resume, tc.rows, err, tc.want)
		}
	}
	r = &Runner{Matrix: two}
	_, cleanup, err = r.Prepare(t.Context())
	if err != nil || r.Out == "" {
		t.Fatalf("no -out: Out %q, %v", r.Out, err)
	}
	cleanup()
	if _, err := os.Stat(r.Out); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the temporary directory %s is left after cleanup: %v", r.Out, err)
	}
}

// TestPrepareLocked: while one run prepares -out and has not finished,
// a second into the same -out, resumed or not, is a usage error; once the
// first cleans up, the second resumes. On main two "run -resume" on one
// -out ran the same runs and reported each other's as failed.
func TestPrepareLocked(t *testing.T) {
	out := t.TempDir()
	m := testMatrix(matrix.Row{Name: "a", Args: lab.Args{Instr: "none"}})
	first := &Runner{Matrix: m, Out: out}
	_, cleanup, err := first.Prepare(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	for _, resume := range []bool{false, true} {
		second := &Runner{Matrix: m, Out: out, Resume: resume}
		_, c, err := second.Prepare(t.Context())
		c()
		if !errors.As(err, new(cli.UsageError)) || !strings.Contains(err.Error(), "is being written by another instrlab run") {
			t.Errorf("a second run (resume %v) while the first runs: %v, want a usage error", resume, err)
		}
	}
	cleanup()
	second := &Runner{Matrix: m, Out: out, Resume: true}
	earlier, c, err := second.Prepare(t.Context())
	c()
	if err != nil || earlier == nil {
		t.Errorf("a resume after the first ended: earlier %v, %v", earlier, err)
	}
}
