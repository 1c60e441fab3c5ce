package report

import (
	"errors"
	"fmt"
	"os"

	"github.com/instrlab/instrlab/internal/evidence"
	"github.com/instrlab/instrlab/internal/matrix"
)

// Load re-analyses every run under dir from its evidence. The matrix is
// read from dir's evidence.MatrixFile when present, for row order and baseline.
// Runs without a record (interrupted) are skipped and counted in warnings.
func Load(dir string) (*matrix.Matrix, []matrix.Result, []string, error) {
	var m *matrix.Matrix
	var warnings []string
	out := evidence.OutDir(dir)
	if _, err := os.Stat(out.Matrix()); err == nil {
		mm, err := matrix.Load(out.Matrix())
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
		return nil, nil, nil, errors.New("no runs found (no " + evidence.RecordFile + " under " + dir + ")")
	}
	var results []matrix.Result
	for _, rd := range runDirs {
		res, err := matrix.Analyze(string(rd))
		if err != nil {
			warnings = append(warnings, fmt.Sprintf("%s: %v", rd, err))
			continue
		}
		results = append(results, res)
	}
	return m, results, warnings, nil
}
