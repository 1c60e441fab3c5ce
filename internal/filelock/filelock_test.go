package filelock

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"
)

// TestLockExcludes: while one holder has the lock, TryLock says so and
// Lock waits (here until its context ends); once released, both take it.
func TestLockExcludes(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.lock")
	unlock, ok, err := TryLock(path)
	if err != nil || !ok {
		t.Fatalf("TryLock of a free lock: %v, %v", ok, err)
	}
	if u, ok, err := TryLock(path); ok || err != nil {
		if u != nil {
			u()
		}
		t.Fatalf("TryLock of a held lock: ok %v, error %v; want false, nil", ok, err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
	defer cancel()
	if _, err := Lock(ctx, path); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Lock of a held lock: %v, want it to wait until the context ends", err)
	}
	done := make(chan error, 1)
	go func() {
		u, err := Lock(t.Context(), path)
		if err == nil {
			u()
		}
		done <- err
	}()
	time.Sleep(20 * time.Millisecond)
	unlock()
	if err := <-done; err != nil {
		t.Fatalf("Lock after the holder released: %v", err)
	}
	u, ok, err := TryLock(path)
	if !ok || err != nil {
		t.Fatalf("TryLock after both released: %v, %v", ok, err)
	}
	u()
}

// TestTryLockUnwritable: a lock file that cannot be made is an error, not
// a lock held by another.
func TestTryLockUnwritable(t *testing.T) {
	if _, ok, err := TryLock(filepath.Join(t.TempDir(), "missing", "x.lock")); ok || err == nil {
		t.Errorf("TryLock in a missing directory: ok %v, error %v; want an error", ok, err)
	}
}
