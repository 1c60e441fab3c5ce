package analyze

import (
	"path/filepath"
	"testing"

	"github.com/instrlab/instrlab/internal/client/clients"
)

// BenchmarkAnalyze measures the analysis of one run's evidence (parsing
// every file, locating the texts, estimating tokens): the runner's own work
// after each client process ends.
func BenchmarkAnalyze(b *testing.B) {
	dirs, err := filepath.Glob(filepath.Join("testdata", "runs", "*", "*", "1"))
	if err != nil || len(dirs) == 0 {
		b.Fatal("no fixture runs")
	}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if _, err := Run(dirs[i%len(dirs)], clients.New); err != nil {
			b.Fatal(err)
		}
	}
}
