//go:build unix

package sweep

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/instrlab/instrlab/internal/evidence"
	"github.com/instrlab/instrlab/internal/testutil"
)

// TestReadPointsBounded: an earlier point that never ends stops at
// maxPoint, and one that blocks (a FIFO nobody writes) gives up when the
// context is done; readPoints used os.ReadFile before 2026-12-06.
func TestReadPointsBounded(t *testing.T) {
	s := &Sweep{Out: t.TempDir()}
	dir := evidence.SweepDir(s.Out).Points("fake")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	testutil.ReadsBounded(t, filepath.Join(dir, "1.0.0.json"), maxPoint, func(ctx context.Context) error {
		_, err := s.readPoints(ctx, "fake")
		return err
	})
}
