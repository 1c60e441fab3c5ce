// Package filelock is the one owner of exclusive locks on files between
// processes: the operating system's (flock on Unix, LockFileEx on
// Windows), held by an open file, so that a process that dies, even by
// SIGKILL, never leaves a stale lock behind.
package filelock

import (
	"context"
	"fmt"
	"os"
	"time"
)

// Lock takes the exclusive lock of the file at path (created when
// missing), waiting until it is free or ctx is done; unlock releases it.
func Lock(ctx context.Context, path string) (unlock func(), err error) {
	for delay := 10 * time.Millisecond; ; {
		unlock, ok, err := TryLock(path)
		if err != nil || ok {
			return unlock, err
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(delay):
		}
		if delay < 500*time.Millisecond {
			delay *= 2
		}
	}
}

// TryLock takes the exclusive lock of the file at path (created when
// missing) if it is free: ok is false, and unlock nil, when another
// process holds it.
func TryLock(path string) (unlock func(), ok bool, err error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, false, err
	}
	if ok, err = tryLock(f); err != nil || !ok {
		f.Close()
		if err != nil {
			err = fmt.Errorf("locking %s: %w", path, err)
		}
		return nil, false, err
	}
	return func() { unlockFile(f); f.Close() }, true, nil
}
