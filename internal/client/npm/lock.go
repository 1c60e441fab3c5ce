package npm

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/instrlab/instrlab/internal/filelock"
)

// Lock takes an exclusive lock on the install dir, held by an open lock
// file beside it (dir + ".lock"), so two processes installing the same
// version (two sweeps, a sweep and a run) do not write the same prefix at
// once: the second waits for the first and then finds the install done.
// The lock is the operating system's (internal/filelock): it goes with
// the process, so a killed installer never leaves a stale lock behind. It
// waits until ctx is done.
func Lock(ctx context.Context, dir string) (unlock func(), err error) {
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return nil, fmt.Errorf("creating %s: %w", filepath.Dir(dir), err)
	}
	unlock, err = filelock.Lock(ctx, dir+".lock")
	switch {
	case errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded):
		return nil, fmt.Errorf("waiting for another install into %s: %w", dir, err)
	case err != nil:
		return nil, fmt.Errorf("the install lock: %w", err)
	}
	return unlock, nil
}
