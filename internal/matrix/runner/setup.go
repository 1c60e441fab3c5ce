package runner

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/instrlab/instrlab/internal/cli"
	"github.com/instrlab/instrlab/internal/evidence"
	"github.com/instrlab/instrlab/internal/fakeapi"
	"github.com/instrlab/instrlab/internal/filelock"
	"github.com/instrlab/instrlab/internal/matrix"
)

// Prepare readies r.Out, the output directory, for r.Matrix; an empty Out
// becomes a temporary directory, which cleanup (never nil) removes. A fresh directory
// gets the matrix as its matrix.json. One that holds an earlier run is
// refused unless r.Resume; a resume may run fewer rows than the run it
// finishes, never others, and keeps the earlier matrix, which Prepare
// returns (nil for a fresh directory): the report of a resumed run covers
// all of its evidence. Its errors about the directory and the resume are
// usage errors naming -out and -resume.
func (r *Runner) Prepare(ctx context.Context) (earlier *matrix.Matrix, cleanup func(), err error) {
	cleanup = func() {}
	if r.Out == "" {
		tmp, err := TempDir(TempRun)
		if err != nil {
			return nil, cleanup, fmt.Errorf("creating a temporary evidence dir: %w", err)
		}
		r.Out, cleanup = tmp, func() { os.RemoveAll(tmp) }
	}
	files := evidence.OutDir(r.Out)
	if err := os.MkdirAll(r.Out, 0o755); err != nil {
		return nil, cleanup, fmt.Errorf("creating %s: %w", r.Out, err)
	}
	// One run writes a directory at a time: a second, resumed or not,
	// would run the same runs and read the first's as failed.
	unlock, ok, err := filelock.TryLock(files.Lock())
	if err != nil {
		return nil, cleanup, fmt.Errorf("-out %s: %w", r.Out, err)
	}
	if !ok {
		return nil, cleanup, cli.UsageError{Msg: fmt.Sprintf("-out %s is being written by another instrlab run: wait for it, or choose another -out", r.Out)}
	}
	removeTmp := cleanup
	cleanup = func() { unlock(); removeTmp() }
	if _, err := os.Stat(files.Matrix()); err == nil {
		if !r.Resume {
			return nil, cleanup, cli.UsageError{Msg: fmt.Sprintf("-out %s holds an earlier run: add -resume to finish it, or choose another -out", r.Out)}
		}
		if earlier, err = matrix.Load(ctx, files.Matrix()); err != nil {
			return nil, cleanup, cli.UsageError{Msg: "-resume: the earlier run's matrix: " + err.Error()}
		}
		if err := r.Matrix.Within(earlier); err != nil {
			return nil, cleanup, cli.UsageError{Msg: "-resume: " + err.Error()}
		}
	}
	if earlier == nil {
		if err := r.Matrix.Save(files.Matrix()); err != nil {
			return nil, cleanup, err
		}
	}
	return earlier, cleanup, nil
}

// Live makes every fake of the run forward to the real API at url
// (instrlab run -live) with the key in $ANTHROPIC_API_KEY, after saying on
// r.Progress the most it may cost (b for each planned request).
func (r *Runner) Live(url string, b fakeapi.Bound) error {
	key := os.Getenv("ANTHROPIC_API_KEY")
	if key == "" {
		return cli.UsageError{Msg: "-live needs ANTHROPIC_API_KEY in the environment"}
	}
	fmt.Fprintln(r.progress(), b.Line(r.Matrix.PlannedRequests(r.Clients), url))
	r.Upstream = &fakeapi.Upstream{URL: url, Key: key}
	return nil
}

// Account gives the account of a run that measured st: its line on
// r.Progress and, when the evidence is kept, stats.json and where the
// evidence is.
func (r *Runner) Account(st Stats, kept bool) error {
	if st.Wall > 0 && kept {
		if err := st.Save(evidence.OutDir(r.Out).Stats()); err != nil {
			return err
		}
	}
	if st.Wall > 0 {
		fmt.Fprintln(r.progress(), st.Line())
	}
	if kept {
		fmt.Fprintf(r.progress(), "evidence in %s\n", r.Out)
	}
	return nil
}

// progress is where the runner reports: Progress, or nowhere.
func (r *Runner) progress() io.Writer {
	if r.Progress == nil {
		return io.Discard
	}
	return r.Progress
}
