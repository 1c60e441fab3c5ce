package report

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"

	"github.com/instrlab/instrlab/internal/matrix"
)

// MatrixFile is the copy of the matrix a run writes at the top of its
// evidence directory.
const MatrixFile = "matrix.json"

// Load re-analyses every run under dir from its evidence. The matrix is
// read from dir's MatrixFile when present, for row order and baseline.
// Runs without a record (interrupted) are skipped and counted in warnings.
func Load(dir string) (*matrix.Matrix, []matrix.Result, []string, error) {
	var m *matrix.Matrix
	var warnings []string
	if _, err := os.Stat(filepath.Join(dir, MatrixFile)); err == nil {
		mm, err := matrix.Load(filepath.Join(dir, MatrixFile))
		if err != nil {
			return nil, nil, nil, err
		}
		m = mm
	} else {
		warnings = append(warnings, fmt.Sprintf("%s: no %s; rows in directory order, no baseline", dir, MatrixFile))
	}
	var runDirs []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "home" || d.Name() == "tmp" || d.Name() == "work") {
			return filepath.SkipDir
		}
		if !d.IsDir() && d.Name() == matrix.RecordFile {
			runDirs = append(runDirs, filepath.Dir(p))
		}
		return nil
	})
	if err != nil {
		return nil, nil, nil, fmt.Errorf("reading evidence: %w", err)
	}
	if len(runDirs) == 0 {
		return nil, nil, nil, errors.New("no runs found (no " + matrix.RecordFile + " under " + dir + ")")
	}
	sort.Strings(runDirs)
	var results []matrix.Result
	for _, rd := range runDirs {
		res, err := matrix.Analyze(rd)
		if err != nil {
			warnings = append(warnings, fmt.Sprintf("%s: %v", rd, err))
			continue
		}
		results = append(results, res)
	}
	return m, results, warnings, nil
}
