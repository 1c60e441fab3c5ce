package evidence

import (
	"fmt"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"
)

// Files of a matrix run's output directory, beside the run dirs.
const (
	MatrixFile      = "matrix.json"  // the matrix as run, for row order and baseline
	StatsFile       = "stats.json"   // the runner's own measurements
	TableMDFile     = "table.md"     // the results table, Markdown
	TableHTMLFile   = "table.html"   // the results table, one HTML page
	ResultsJSONFile = "results.json" // the table and every Result, JSON
	ResultsCSVFile  = "results.csv"  // the table, CSV
	LockFile        = ".lock"        // held by the run writing the directory
)

// An OutDir is the output directory of a matrix run: the matrix, the
// tables and one RunDir per client, row and repeat.
type OutDir string

// File is the path of name inside d.
func (d OutDir) File(name string) string { return filepath.Join(string(d), name) }

// Matrix is the copy of the matrix the run writes first.
func (d OutDir) Matrix() string { return d.File(MatrixFile) }

// Lock is the file whose lock (internal/filelock) the run writing d
// holds, so that a second run into d is refused.
func (d OutDir) Lock() string { return d.File(LockFile) }

// Stats is the runner's measurements of the whole run.
func (d OutDir) Stats() string { return d.File(StatsFile) }

// Run is the evidence directory of one repeat of row with client, named
// as client.Spec.String names it (name@version).
func (d OutDir) Run(client, row string, repeat int) RunDir {
	return RunDir(filepath.Join(string(d), client, row, fmt.Sprint(repeat)))
}

// Runs lists the run dirs under d that hold a record, sorted. Runs
// interrupted before their record was written are not listed.
func (d OutDir) Runs() ([]RunDir, error) {
	var dirs []RunDir
	err := filepath.WalkDir(string(d), func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if e.IsDir() && Sandbox(e.Name()) {
			return filepath.SkipDir
		}
		if !e.IsDir() && e.Name() == RecordFile {
			dirs = append(dirs, RunDir(filepath.Dir(p)))
		}
		return nil
	})
	sort.Slice(dirs, func(i, j int) bool { return dirs[i] < dirs[j] })
	return dirs, err
}

// ArmClient is the directory name of a client's runs in arm: the client
// (name@version) alone for its default arm, else client~arm. No client
// name or version holds '~', so the two never meet.
func ArmClient(client, arm string, isDefault bool) string {
	if isDefault || arm == "" {
		return client
	}
	return client + "~" + arm
}

// SplitArmClient undoes ArmClient: the client and the arm, "" for the
// default.
func SplitArmClient(dir string) (client, arm string) {
	client, arm, _ = strings.Cut(dir, "~")
	return client, arm
}
