package report

import (
	"bytes"
	"flag"
	"path/filepath"
	"strings"
	"testing"

	"github.com/instrlab/instrlab/internal/client/clients"
	"github.com/instrlab/instrlab/internal/matrix"
	"github.com/instrlab/instrlab/internal/matrix/analyze"
	"github.com/instrlab/instrlab/internal/table"
	"github.com/instrlab/instrlab/internal/testutil"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// fixtureDir holds trimmed evidence of real runs of two Claude Code
// versions (see ../matrix/analyze/testdata/trimrun.py).
const fixtureDir = "../matrix/analyze/testdata/runs"

func TestTablesFromRealEvidence(t *testing.T) {
	m, results, warnings, err := Load(t.Context(), clients.New, fixtureDir)
	if err != nil {
		t.Fatal(err)
	}
	if m != nil || len(warnings) != 1 || !strings.Contains(warnings[0], "no matrix.json") {
		t.Errorf("Load: matrix %v, warnings %q", m, warnings)
	}
	if len(results) != 5 {
		t.Fatalf("%d results, want 5", len(results))
	}
	tab := Build(matrix.Seed(), results)
	var md, csv bytes.Buffer
	if err := table.Markdown(&md, tab); err != nil {
		t.Fatal(err)
	}
	if err := table.CSV(&csv, tab); err != nil {
		t.Fatal(err)
	}
	testutil.Golden(t, filepath.Join("testdata", "fixtures.md"), md.Bytes(), *update)
	testutil.Golden(t, filepath.Join("testdata", "fixtures.csv"), csv.Bytes(), *update)
	// Two clients: one column group each, and the dual-era row differs.
	if !strings.Contains(md.String(), "claude-code@2.1.285: placement") || !strings.Contains(md.String(), "**discover**") {
		t.Errorf("no column groups or no marked difference:\n%s", md.String())
	}
}

func TestCells(t *testing.T) {
	tests := []struct{ got, want string }{
		{duration(12.4), "12 ms"},
		{duration(3060), "3.1 s"},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("got %q, want %q", tt.got, tt.want)
		}
	}
	tok := func(n int, noDelta bool) *summary {
		return &summary{results: []*analyze.Result{{Status: "ok", NoDelta: noDelta, First: &analyze.RequestFacts{Tokens: n}}}}
	}
	base := tok(1000, false)
	for _, tt := range []struct {
		s    *summary
		want string
	}{
		{tok(1377, false), "+377"},
		{tok(900, false), "−100"},
		{tok(5000, true), "n/a (not comparable)"},
		{base, "—"},
	} {
		if got := deltaText(tt.s, base); got != tt.want {
			t.Errorf("deltaText = %q, want %q", got, tt.want)
		}
	}
}
