//go:build unix

package npm

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// fakeNPM puts an npm on PATH that logs each install to calls, sleeps
// NPM_SLEEP seconds, then writes the package's package.json (or fails
// with NPM_FAIL) and a payload of NPM_BYTES bytes.
func fakeNPM(t *testing.T) (calls string) {
	t.Helper()
	bin := t.TempDir()
	calls = filepath.Join(bin, "calls")
	script := `#!/bin/sh
# npm install --prefix DIR ... NAME@VERSION
prefix=$3
for a; do spec=$a; done
echo "$spec" >> ` + calls + `
sleep "${NPM_SLEEP:-0}"
if [ -n "$NPM_FAIL" ]; then echo "npm ERR! $NPM_FAIL" >&2; exit 1; fi
name=${spec%@*}; version=${spec##*@}
mkdir -p "$prefix/node_modules/$name"
printf '{"name":"%s","version":"%s"}' "$name" "$version" > "$prefix/node_modules/$name/package.json"
head -c "${NPM_BYTES:-1000}" /dev/zero > "$prefix/node_modules/$name/payload"
`
	if err := os.WriteFile(filepath.Join(bin, "npm"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+":/usr/bin:/bin")
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	return calls
}

func countLines(t *testing.T, path string) int {
	b, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return 0
	}
	if err != nil {
		t.Fatal(err)
	}
	return strings.Count(string(b), "\n")
}

func TestConcurrentInstallsOfOneVersionRunNPMOnce(t *testing.T) {
	calls := fakeNPM(t)
	t.Setenv("NPM_SLEEP", "0.3")
	p := Package{Client: "x", Version: "1.2.3", Name: "@scope/x"}
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = Ensure(context.Background(), p, io.Discard)
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("install %d: %v", i, err)
		}
	}
	if n := countLines(t, calls); n != 1 {
		t.Errorf("npm ran %d times for four concurrent installs of one version, want 1", n)
	}
}

func TestLockWaitsForTheHolder(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "x@1")
	unlock, err := Lock(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	if _, err := Lock(ctx, dir); err == nil || !strings.Contains(err.Error(), "waiting for another install") {
		t.Fatalf("second Lock while held: %v", err)
	}
	unlock()
	unlock2, err := Lock(context.Background(), dir)
	if err != nil {
		t.Fatalf("Lock after unlock: %v", err)
	}
	unlock2()
}

func TestCutOffInstallIsRedone(t *testing.T) {
	calls := fakeNPM(t)
	p := Package{Client: "x", Version: "1.0.0", Name: "x"}
	dir, _ := p.Dir()
	// A first install killed after npm wrote package.json but before it
	// finished: simulate with a prefix locked once and never sized.
	unlock, err := Lock(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "node_modules", "x", "package.json"), `{"version":"1.0.0"}`)
	unlock()
	if _, err := Ensure(context.Background(), p, io.Discard); err != nil {
		t.Fatal(err)
	}
	if n := countLines(t, calls); n != 1 {
		t.Errorf("npm ran %d times, want 1: the unfinished install must be redone", n)
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "x", "payload")); err != nil {
		t.Errorf("the redone install is incomplete: %v", err)
	}
	// A cancelled install leaves nothing behind.
	t.Setenv("NPM_SLEEP", "5")
	q := Package{Client: "x", Version: "2.0.0", Name: "x"}
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	_, err = Ensure(ctx, q, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "cut off") {
		t.Errorf("cancelled install: %v, want an error saying it was cut off", err)
	}
	qdir, _ := q.Dir()
	if _, err := os.Stat(qdir); !os.IsNotExist(err) {
		t.Errorf("a cut-off install left %s behind (%v)", qdir, err)
	}
}

func TestFailedInstallSaysWhy(t *testing.T) {
	fakeNPM(t)
	t.Setenv("NPM_FAIL", "ENOSPC: no space left on device")
	_, err := Ensure(context.Background(), Package{Client: "x", Version: "1.0.0", Name: "x"}, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "ENOSPC") {
		t.Errorf("failed install: %v, want npm's own reason", err)
	}
}

func TestEvictionKeepsTheCacheWithinItsLimit(t *testing.T) {
	fakeNPM(t)
	t.Setenv("NPM_BYTES", "400000")
	t.Setenv(LimitEnv, "1MB") // room for two installs of 400 kB, not three
	var progress strings.Builder
	for _, v := range []string{"1.0.0", "1.0.1", "1.0.2"} {
		if _, err := Ensure(context.Background(), Package{Client: "x", Version: v, Name: "x"}, &progress); err != nil {
			t.Fatal(err)
		}
		time.Sleep(20 * time.Millisecond) // distinct use times
	}
	// Use 1.0.1 again: 1.0.0 is now the least recently used.
	if _, err := Ensure(context.Background(), Package{Client: "x", Version: "1.0.1", Name: "x"}, &progress); err != nil {
		t.Fatal(err)
	}
	root, _ := Root()
	entries, err := Entries(root)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	var total int64
	for _, e := range entries {
		names = append(names, filepath.Base(e.Dir))
		total += e.Size
	}
	if strings.Join(names, " ") != "x@1.0.2 x@1.0.1" {
		t.Errorf("installs left, least recently used first: %v; want x@1.0.2 x@1.0.1", names)
	}
	if total > 1e6 {
		t.Errorf("cache holds %d bytes, over its 1 MB limit", total)
	}
	if !strings.Contains(progress.String(), "evicted x@1.0.0") {
		t.Errorf("progress does not say what was evicted:\n%s", progress.String())
	}
}

func TestParseSize(t *testing.T) {
	for in, want := range map[string]int64{"500MB": 500e6, "20GiB": 20 << 30, "1048576": 1 << 20, "1.5 GB": 1.5e9} {
		if got, err := ParseSize(in); err != nil || got != want {
			t.Errorf("ParseSize(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "lots", "-1GB", "GB"} {
		if _, err := ParseSize(in); err == nil {
			t.Errorf("ParseSize(%q) accepted", in)
		}
	}
}

func TestSetLimit(t *testing.T) {
	t.Setenv(LimitEnv, "")
	if err := SetLimit("2GiB"); err != nil {
		t.Fatal(err)
	}
	if n, err := LimitFromEnv(); err != nil || n != 2<<30 {
		t.Errorf("after SetLimit(2GiB): LimitFromEnv() = %d, %v", n, err)
	}
	if err := SetLimit("lots"); err == nil || !strings.Contains(err.Error(), "-cache-limit") {
		t.Errorf("SetLimit(lots) = %v, want an error naming -cache-limit", err)
	}
	t.Setenv(LimitEnv, "lots")
	if err := SetLimit(""); err == nil || !strings.Contains(err.Error(), LimitEnv) {
		t.Errorf("SetLimit(\"\") with a bad %s = %v, want an error naming it", LimitEnv, err)
	}
}
