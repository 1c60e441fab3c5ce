package report

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"sort"

	"github.com/instrlab/instrlab/internal/evidence"
	"github.com/instrlab/instrlab/internal/matrix"
	"github.com/instrlab/instrlab/internal/matrix/analyze"
)

// ErrMixed reports evidence directories that cannot be merged into one
// table: runs of different matrices, or the same run in two directories.
var ErrMixed = errors.New("evidence directories cannot be merged")

// Load re-analyses every run under dirs from its evidence, each client's
// own files read by the client clients finds for it (clients.New): the matrix,
// the results and warnings about what could not be read (see loadDir).
// Several directories (the shards of one run, made on several machines
// with -shard k/n) load as one: the same matrix, the runs of all, ordered
// as one directory holding them all would order them, so the tables are
// byte for byte those of a single-machine run of the same evidence.
// Directories of different matrices are refused, as is a run (client,
// row, repeat) found in two of them.
func Load(ctx context.Context, clients analyze.Clients, dirs ...string) (*matrix.Matrix, []analyze.Result, []string, error) {
	switch len(dirs) {
	case 0:
		return nil, nil, nil, fmt.Errorf("%w (no evidence directory)", errNoRuns)
	case 1:
		return loadDir(ctx, dirs[0], clients)
	}
	var m *matrix.Matrix
	var mJSON []byte
	var all []analyze.Result
	var warnings []string
	rel := map[string]string{} // result dir -> its path inside its evidence directory
	seen := map[string]string{}
	for _, dir := range dirs {
		dm, results, w, err := loadDir(ctx, dir, clients)
		if err != nil {
			return nil, nil, nil, fmt.Errorf("%s: %w", dir, err)
		}
		warnings = append(warnings, w...)
		b, _ := json.Marshal(dm)
		switch {
		case m == nil && mJSON == nil:
			m, mJSON = dm, b
		case !bytes.Equal(b, mJSON):
			return nil, nil, nil, fmt.Errorf("%w: %s holds a run of matrix %s, %s one of matrix %s (or the same name with other rows)",
				ErrMixed, dir, name(dm), dirs[0], name(m))
		}
		for _, r := range results {
			p, err := filepath.Rel(dir, r.Dir)
			if err != nil {
				p = r.Dir
			}
			if other, ok := seen[p]; ok {
				return nil, nil, nil, fmt.Errorf("%w: run %s is in both %s and %s", ErrMixed, p, other, dir)
			}
			seen[p], rel[r.Dir] = dir, p
			all = append(all, r)
		}
	}
	sort.SliceStable(all, func(i, j int) bool { return rel[all[i].Dir] < rel[all[j].Dir] })
	return m, all, warnings, nil
}

func name(m *matrix.Matrix) string {
	if m == nil {
		return "(none: no " + evidence.MatrixFile + ")"
	}
	return fmt.Sprintf("%q", m.Name)
}
