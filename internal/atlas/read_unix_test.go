//go:build unix

package atlas

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/instrlab/instrlab/internal/testutil"
)

// TestReadBounded: an atlas.json that never ends stops at MaxFile, and one
// that blocks (a FIFO nobody writes) gives up when the context is done;
// Read used os.ReadFile before 2026-12-06.
func TestReadBounded(t *testing.T) {
	path := filepath.Join(t.TempDir(), "atlas.json")
	testutil.ReadsBounded(t, path, MaxFile, func(ctx context.Context) error {
		_, err := Read(ctx, path)
		return err
	})
}
