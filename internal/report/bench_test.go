package report

import (
	"bytes"
	"io"
	"os"
	"testing"

	"github.com/instrlab/instrlab/internal/client/clients"
	"github.com/instrlab/instrlab/internal/matrix"
	"github.com/instrlab/instrlab/internal/matrix/analyze"
)

// BenchmarkReport times report generation: from a run's analysed results
// to every table (md, csv, json) and the page, the page's size reported.
// INSTRLAB_BENCH_RUN=DIR measures a real run, as the README does with the
// five-client matrix (instrlab run -client all -out DIR); without it, the
// diff fixtures' results stand in, copied under five client names.
func BenchmarkReport(b *testing.B) {
	dir := os.Getenv("INSTRLAB_BENCH_RUN")
	var m *matrix.Matrix
	var results []analyze.Result
	if dir != "" {
		var err error
		if m, results, _, err = Load(b.Context(), clients.New, dir); err != nil {
			b.Fatal(err)
		}
	} else {
		dir = diffDir + "/2.1.328"
		mm, base, _, err := Load(b.Context(), clients.New, dir)
		if err != nil {
			b.Fatal(err)
		}
		m = mm
		for _, c := range []string{"a@1", "b@1", "c@1", "d@1", "e@1"} {
			for _, r := range base {
				r.Client = c
				results = append(results, r)
			}
		}
	}
	var page bytes.Buffer
	for b.Loop() {
		rep := New(m, results, dir)
		for _, f := range []string{"md", "csv", "json"} {
			if err := rep.Write(io.Discard, f); err != nil {
				b.Fatal(err)
			}
		}
		page.Reset()
		if err := rep.HTML(&page); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(page.Len()), "page-bytes")
	b.ReportMetric(float64(len(results)), "runs")
}
