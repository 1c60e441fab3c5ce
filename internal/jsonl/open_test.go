package jsonl

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOpen: a regular file opens and reads to MaxFile bytes, then fails
// with ErrTooLong (Lines says so as a warning); a directory or a device
// is refused before any read.
func TestOpen(t *testing.T) {
	dir := t.TempDir()
	long := filepath.Join(dir, "long.jsonl")
	f, err := os.Create(long)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("{\"a\":1}\n")
	f.Truncate(MaxFile + 4096) // sparse: no disk; zeros after the first line
	f.Close()
	r, err := Open(long)
	if err != nil {
		t.Fatal(err)
	}
	n, err := io.Copy(io.Discard, r)
	r.Close()
	if n != MaxFile || !errors.Is(err, ErrTooLong) {
		t.Errorf("read %d bytes, %v; want %d and ErrTooLong", n, err, MaxFile)
	}
	for _, p := range []string{dir, os.DevNull} {
		if _, err := Open(p); err == nil || !strings.Contains(err.Error(), "not a regular file") {
			t.Errorf("Open(%s): %v, want refused", p, err)
		}
	}
	if _, err := Open(filepath.Join(dir, "missing")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a missing file: %v, want ErrNotExist", err)
	}
}
