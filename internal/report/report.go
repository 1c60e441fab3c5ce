package report

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/instrlab/instrlab/internal/evidence"
	"github.com/instrlab/instrlab/internal/matrix"
	"github.com/instrlab/instrlab/internal/matrix/analyze"
	"github.com/instrlab/instrlab/internal/table"
)

// Formats are the formats a report prints: summary is the short table
// for a terminal, md, csv and json the full table, html the page, tested
// the "tested with" table of a run of users' servers (WriteTested).
var Formats = table.Formats{"text", "md", "csv", "json", "html", "tested"}

// Files are the files WriteFiles writes into an output directory, by
// format.
var Files = map[string]string{"md": evidence.TableMDFile, "json": evidence.ResultsJSONFile, "csv": evidence.ResultsCSVFile, "html": evidence.TableHTMLFile}

// A Report is everything printed about one matrix run, computed once from
// its results: the full table, the summary, the page.
type Report struct {
	g     *grid
	Table table.Table
	// Link is where the run's evidence is kept (an https URL, as a
	// workflow run's page), for the tested format's links.
	Link string
}

// New arranges results (of matrix m, which may be nil) for printing. dir
// is the evidence directory the results' Dirs are under; cells link to
// files relative to it ("" for no links).
func New(m *matrix.Matrix, results []analyze.Result, dir string) *Report {
	g := newGrid(m, results, dir)
	return &Report{g: g, Table: g.table()}
}

// Summary is the short table: one line per row and client.
func (r *Report) Summary() table.Table { return r.g.summaryTable() }

// Write prints the report in one of Formats.
func (r *Report) Write(w io.Writer, format string) error {
	switch format {
	case "text":
		if err := table.Text(w, r.Summary()); err != nil {
			return err
		}
		for _, more := range []table.Table{r.g.callsTable(), r.g.protocolTable()} {
			if len(more.Rows) == 0 {
				continue
			}
			fmt.Fprintln(w)
			if err := table.Text(w, more); err != nil {
				return err
			}
		}
		if vs := Verdicts(r.g.results); len(vs) > 0 {
			fmt.Fprintln(w)
			return table.Text(w, verdictsTable(vs))
		}
		return nil
	case "md":
		if err := table.Markdown(w, r.Table); err != nil {
			return err
		}
		if vs := Verdicts(r.g.results); len(vs) > 0 {
			fmt.Fprintln(w)
			return table.Markdown(w, verdictsTable(vs))
		}
		return nil
	case "csv":
		return table.CSV(w, r.Table)
	case "json":
		return JSON(w, r.Table, r.g.results)
	case "html":
		return r.HTML(w)
	case "tested":
		return r.WriteTested(w, r.Link)
	}
	return Formats.Check(format)
}

// WriteFiles writes every format but the summary into dir, under the
// names of Files.
func (r *Report) WriteFiles(dir string) error {
	for _, format := range Formats {
		name, ok := Files[format]
		if !ok {
			continue
		}
		f, err := os.Create(filepath.Join(dir, name))
		if err != nil {
			return fmt.Errorf("writing %s: %w", name, err)
		}
		err = r.Write(f, format)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return fmt.Errorf("writing %s: %w", name, err)
		}
	}
	return nil
}
