//go:build unix

package testutil

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"
)

// ReadsBounded checks a reader of user data, read, which reads the file
// at path: a file that never ends (/dev/zero, linked at path) fails
// naming max, the most it reads, and one that blocks (a FIFO at path that
// nobody writes) gives up when the context is done. path must not exist.
func ReadsBounded(t *testing.T, path string, max int64, read func(ctx context.Context) error) {
	t.Helper()
	if _, err := os.Stat("/dev/zero"); err == nil {
		if err := os.Symlink("/dev/zero", path); err != nil {
			t.Fatal(err)
		}
		want := fmt.Sprintf("longer than %d bytes", max)
		if err := read(t.Context()); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("reading /dev/zero: %v, want an error naming the limit (%s)", err, want)
		}
		if err := os.Remove(path); err != nil {
			t.Fatal(err)
		}
	}
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Skip("no FIFO:", err)
	}
	defer os.Remove(path)
	ctx, cancel := context.WithTimeout(t.Context(), 200*time.Millisecond)
	defer cancel()
	if err := read(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("reading a FIFO: %v, want the context's deadline", err)
	}
}
