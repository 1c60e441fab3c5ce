//go:build unix

package derive

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/instrlab/instrlab/internal/testutil"
)

// TestReadExcerptBounded: an excerpt or annex that never ends stops at
// MaxExcerpt, and one that blocks (a FIFO nobody writes) gives up when
// the context is done, as -profile-earlier's reader does; they used
// os.ReadFile before 2026-12-06.
func TestReadExcerptBounded(t *testing.T) {
	read := map[string]func(context.Context, string) error{
		"ReadExcerpt": func(ctx context.Context, name string) error { _, err := ReadExcerpt(ctx, name); return err },
		"ReadAnnex":   func(ctx context.Context, name string) error { _, err := ReadAnnex(ctx, name); return err },
		"EarlierIn": func(ctx context.Context, name string) error {
			_, err := EarlierIn(ctx, name)("x@1")
			return err
		},
	}
	for name, f := range read {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "excerpt.json")
			testutil.ReadsBounded(t, path, MaxExcerpt, func(ctx context.Context) error { return f(ctx, path) })
		})
	}
}
