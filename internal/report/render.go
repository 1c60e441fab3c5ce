package report

import (
	"github.com/instrlab/instrlab/schema"
	"io"

	"github.com/instrlab/instrlab/internal/matrix/analyze"
	"github.com/instrlab/instrlab/internal/table"
)

// ResultsFile is what results.json holds: the table and the per-run
// results it was built from (what diff reads back).
type ResultsFile struct {
	Table   table.Table      `json:"table"`
	Results []analyze.Result `json:"results"`
	// Verdicts are what each client did with each user's server the
	// results ran, measured (Verdicts); none for the lab's rows.
	Verdicts []Verdict `json:"verdicts,omitempty"`
}

// JSON writes the table, the per-run results it was built from and the
// verdicts on users' servers, named as schema.Results.
func JSON(w io.Writer, t table.Table, results []analyze.Result) error {
	return table.JSON(w, schema.Named(schema.Results, ResultsFile{Table: t, Results: results, Verdicts: Verdicts(results)}))
}
