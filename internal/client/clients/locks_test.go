package clients

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/instrlab/instrlab/internal/client"
	"github.com/instrlab/instrlab/internal/client/npm"
	"github.com/instrlab/instrlab/internal/client/pins"
)

var update = flag.Bool("update", false, "write the lockfile of every pinned client (internal/client/npm/locks) with npm, and remove those no pin uses (-run Locks); write docs/arms.md (-run ArmsPage)")

// TestPinnedLocks: every pinned client's npm package (on this platform)
// has a committed lockfile that locks exactly that version with an
// integrity hash for every package (npm.CheckLock), and no lock is left
// that no pin uses. With -update (npm and the registry needed) it makes
// them: run it after a pin moves.
func TestPinnedLocks(t *testing.T) {
	dir := filepath.Join("..", "npm", "locks")
	var want []string
	for _, name := range Names() {
		version := pins.Version(name)
		if version == "" {
			continue
		}
		c, err := New(name + "@" + version)
		if err != nil {
			t.Fatal(err)
		}
		pub, ok := c.(client.Published)
		if !ok {
			continue
		}
		if h, ok := c.(interface{ Hosted() npm.Host }); ok {
			checkHost(t, h.Hosted(), version)
			continue
		}
		pkg := pub.Package()
		file := npm.LockName(pkg, version)
		want = append(want, file)
		if *update {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
			lock, err := npm.MakeLock(ctx, pkg, version)
			cancel()
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, file), lock, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		lock, ok := npm.LockOf(pkg, version)
		if !ok {
			t.Errorf("%s@%s (%s): no committed lock; make it with go test ./internal/client/clients -run Locks -update", name, version, pkg)
			continue
		}
		if err := npm.CheckLock(lock, pkg, version); err != nil {
			t.Errorf("%s: %v", file, err)
		}
	}
	have, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	for _, f := range have {
		if slices.Contains(want, filepath.Base(f)) {
			continue
		}
		if *update {
			os.Remove(f)
			continue
		}
		t.Errorf("%s: no pin uses it (go test -run Locks -update removes it)", f)
	}
}

// checkHost checks a framework's host (npm.Host.Check) and that its
// package.json names the pinned version; with -update it makes its lock.
func checkHost(t *testing.T, h npm.Host, version string) {
	t.Helper()
	if pin, err := h.Pin(); err != nil || pin != version {
		t.Errorf("%s: the host's package.json names %s@%s (%v), the pin is %s", h.Client, h.Package, pin, err, version)
		return
	}
	if *update {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		lock, err := h.MakeLock(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join("..", "..", "..", filepath.FromSlash(h.Dir), "package-lock.json"), lock, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if err := h.Check(); err != nil {
		t.Error(err)
	}
}
