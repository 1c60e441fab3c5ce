//go:build unix

package derive

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
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
	fifo := filepath.Join(t.TempDir(), "excerpt.json")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFO:", err)
	}
	for name, f := range read {
		if _, err := os.Stat("/dev/zero"); err == nil {
			if err := f(t.Context(), "/dev/zero"); err == nil || !strings.Contains(err.Error(), "longer than 67108864 bytes") {
				t.Errorf("%s(/dev/zero): %v, want an error naming the limit", name, err)
			}
		}
		ctx, cancel := context.WithTimeout(t.Context(), 200*time.Millisecond)
		if err := f(ctx, fifo); !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("%s(FIFO): %v, want the context's deadline", name, err)
		}
		cancel()
	}
}
