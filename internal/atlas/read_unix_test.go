//go:build unix

package atlas

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

// TestReadBounded: an atlas.json that never ends stops at MaxFile, and one
// that blocks (a FIFO nobody writes) gives up when the context is done;
// Read used os.ReadFile before 2026-12-06.
func TestReadBounded(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err == nil {
		if _, err := Read(t.Context(), "/dev/zero"); err == nil || !strings.Contains(err.Error(), "longer than 268435456 bytes") {
			t.Errorf("Read(/dev/zero): %v, want an error naming the limit", err)
		}
	}
	fifo := filepath.Join(t.TempDir(), "atlas.json")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFO:", err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 200*time.Millisecond)
	defer cancel()
	if _, err := Read(ctx, fifo); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Read(FIFO): %v, want the context's deadline", err)
	}
}
