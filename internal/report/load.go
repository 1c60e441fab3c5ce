package report

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/instrlab/instrlab/internal/evidence"
	"github.com/instrlab/instrlab/internal/matrix"
	"github.com/instrlab/instrlab/internal/matrix/analyze"
)

// errNoRuns is Load's error for evidence without any finished run.
var errNoRuns = errors.New("no runs found")

// loadDir re-analyses every run under dir from its evidence, each client's
// own files read by the client clients finds for it. The matrix is
// read from dir's evidence.MatrixFile when present, for row order and baseline.
// Runs without a record (interrupted) are skipped; a run whose record
// cannot be read is kept as failed, with why, and warned about.
func loadDir(ctx context.Context, dir string, clients analyze.Clients) (*matrix.Matrix, []analyze.Result, []string, error) {
	var m *matrix.Matrix
	var warnings []string
	out := evidence.OutDir(dir)
	if _, err := os.Stat(out.Matrix()); err == nil {
		mm, err := matrix.Load(ctx, out.Matrix())
		if err != nil {
			return nil, nil, nil, err
		}
		m = mm
	} else {
		warnings = append(warnings, fmt.Sprintf("%s: no %s; rows in directory order, no baseline", dir, evidence.MatrixFile))
	}
	runDirs, err := out.Runs()
	if err != nil {
		return nil, nil, nil, fmt.Errorf("reading evidence: %w", err)
	}
	if len(runDirs) == 0 {
		return nil, nil, nil, fmt.Errorf("%w (no %s under %s)", errNoRuns, evidence.RecordFile, dir)
	}
	var results []analyze.Result
	for _, rd := range runDirs {
		if err := ctx.Err(); err != nil {
			return nil, nil, nil, fmt.Errorf("reading evidence: %w", err)
		}
		res, err := analyze.Run(string(rd), clients)
		if err != nil {
			warnings = append(warnings, fmt.Sprintf("%s: %v", rd, err))
			res = unreadable(dir, rd, err)
		}
		results = append(results, res)
	}
	return m, results, warnings, nil
}

// unreadable places a run whose record cannot be read by its directory,
// client/row/repeat under dir.
func unreadable(dir string, rd evidence.RunDir, cause error) analyze.Result {
	client, row, repeat := "", "", 0
	if rel, err := filepath.Rel(dir, string(rd)); err == nil {
		if parts := strings.Split(filepath.ToSlash(rel), "/"); len(parts) == 3 {
			client, row = parts[0], parts[1]
			repeat, _ = strconv.Atoi(parts[2])
		}
	}
	return analyze.Unreadable(string(rd), client, row, repeat, cause)
}

// Resumed is what a resumed run in dir reports: every run whose evidence
// is in dir, the earlier ones included, as Load reads them with clients, with the runs
// just made (fresh) that left no record there (a full disk) added, and the
// matrix of dir. A dir without any record gives fresh alone.
func Resumed(ctx context.Context, clients analyze.Clients, dir string, m *matrix.Matrix, fresh []analyze.Result) (*matrix.Matrix, []analyze.Result, []string, error) {
	dm, results, warnings, err := Load(ctx, clients, dir)
	if err != nil {
		if !errors.Is(err, errNoRuns) {
			return nil, nil, nil, err
		}
		return m, fresh, nil, nil
	}
	if dm != nil {
		m = dm
	}
	abs := func(p string) string {
		if a, err := filepath.Abs(p); err == nil {
			return a
		}
		return filepath.Clean(p)
	}
	have := map[string]bool{}
	for _, r := range results {
		have[abs(r.Dir)] = true
	}
	for _, r := range fresh {
		if !have[abs(r.Dir)] {
			results = append(results, r)
		}
	}
	return m, results, warnings, nil
}
