//go:build unix

package sweep

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/instrlab/instrlab/internal/evidence"
)

// TestReadPointsBounded: an earlier point that never ends stops at
// maxPoint, and one that blocks (a FIFO nobody writes) gives up when the
// context is done; readPoints used os.ReadFile before 2026-12-06.
func TestReadPointsBounded(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero")
	}
	s := &Sweep{Out: t.TempDir()}
	dir := evidence.SweepDir(s.Out).Points("fake")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/dev/zero", filepath.Join(dir, "1.0.0.json")); err != nil {
		t.Fatal(err)
	}
	if _, err := s.readPoints(t.Context(), "fake"); err == nil || !strings.Contains(err.Error(), "longer than 1048576 bytes") {
		t.Errorf("readPoints(/dev/zero): %v, want an error naming the limit", err)
	}
	os.Remove(filepath.Join(dir, "1.0.0.json"))
	if err := syscall.Mkfifo(filepath.Join(dir, "1.0.1.json"), 0o600); err != nil {
		t.Skip("no FIFO:", err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 200*time.Millisecond)
	defer cancel()
	if _, err := s.readPoints(ctx, "fake"); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("readPoints(FIFO): %v, want the context's deadline", err)
	}
}
