package npm

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// Lock takes an exclusive lock on the install dir, held by an open lock
// file beside it (dir + ".lock"), so two processes installing the same
// version (two sweeps, a sweep and a run) do not write the same prefix at
// once: the second waits for the first and then finds the install done.
// The lock is the operating system's (flock, LockFileEx): it goes with the
// process, so a killed installer never leaves a stale lock behind. It
// waits until ctx is done.
func Lock(ctx context.Context, dir string) (unlock func(), err error) {
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return nil, fmt.Errorf("creating %s: %w", filepath.Dir(dir), err)
	}
	f, err := os.OpenFile(dir+".lock", os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, fmt.Errorf("opening the install lock: %w", err)
	}
	for delay := 10 * time.Millisecond; ; {
		ok, err := tryLock(f)
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("locking %s: %w", f.Name(), err)
		}
		if ok {
			return func() { unlockFile(f); f.Close() }, nil
		}
		select {
		case <-ctx.Done():
			f.Close()
			return nil, fmt.Errorf("waiting for another install into %s: %w", dir, ctx.Err())
		case <-time.After(delay):
		}
		if delay < 500*time.Millisecond {
			delay *= 2
		}
	}
}
