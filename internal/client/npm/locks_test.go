package npm

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCheckLock: a committed lock must lock exactly its package and
// version, as an npm lockfile of version 2 or 3, every fetched package
// with a sha512 integrity hash.
func TestCheckLock(t *testing.T) {
	good := `{"lockfileVersion": 3, "packages": {
	  "": {"dependencies": {"x": "1.2.3"}},
	  "node_modules/x": {"version": "1.2.3", "resolved": "https://registry.npmjs.org/x/-/x-1.2.3.tgz", "integrity": "sha512-aaaa", "dependencies": {"y": "^2"}},
	  "node_modules/y": {"version": "2.0.1", "resolved": "https://registry.npmjs.org/y/-/y-2.0.1.tgz", "integrity": "sha512-bbbb"}}}`
	if err := CheckLock([]byte(good), "x", "1.2.3"); err != nil {
		t.Errorf("a good lock: %v", err)
	}
	for _, tt := range []struct{ name, lock, want string }{
		{"not JSON", `{`, "not a package-lock.json"},
		{"version 1", `{"lockfileVersion": 1, "packages": {}}`, "lockfileVersion 1"},
		{"another version", strings.ReplaceAll(good, "1.2.3", "1.2.4"), "want only x@1.2.3"},
		{"a floating root", strings.Replace(good, `"x": "1.2.3"}}`, `"x": "^1.2.3"}}`, 1), "want only x@1.2.3"},
		{"no integrity", strings.Replace(good, `"integrity": "sha512-bbbb"`, `"integrity": ""`, 1), "node_modules/y has no sha512 integrity"},
		{"sha1 only", strings.Replace(good, `"sha512-bbbb"`, `"sha1-cccc"`, 1), "node_modules/y has no sha512 integrity"},
	} {
		if err := CheckLock([]byte(tt.lock), "x", "1.2.3"); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v, want an error saying %q", tt.name, err, tt.want)
		}
	}
}

// TestLockedPrefix: a prefix is taken as installed from a lock only when
// it records that lock's hash; one installed otherwise, or from another
// lock, is installed again.
func TestLockedPrefix(t *testing.T) {
	dir := t.TempDir()
	lock := []byte(`{"lockfileVersion": 3}`)
	if fromLock(dir, lock) {
		t.Error("a prefix with no record reads as installed from the lock")
	}
	args, err := lockedArgs(dir, "@scope/x", "1.0.0", lock)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(args, " ") != "install --prefix "+dir+" --ignore-scripts --no-save --no-audit --no-fund --loglevel=error" {
		t.Errorf("npm %q: want an install of the lock, without scripts", args)
	}
	pj, _ := os.ReadFile(filepath.Join(dir, "package.json"))
	pl, _ := os.ReadFile(filepath.Join(dir, "package-lock.json"))
	if string(pj) != `{"dependencies":{"@scope/x":"1.0.0"}}` || string(pl) != string(lock) {
		t.Errorf("package.json %s, package-lock.json %s", pj, pl)
	}
	if err := markLocked(dir, lock); err != nil {
		t.Fatal(err)
	}
	if !fromLock(dir, lock) || fromLock(dir, []byte(`{"lockfileVersion": 2}`)) {
		t.Error("the record does not tell this lock from another")
	}
}

// TestLockedTreeFound: a prefix installed before its lock (or by hand)
// whose every package is at the lock's version is taken, and recorded,
// without an install; one that differs is not.
func TestLockedTreeFound(t *testing.T) {
	lock := []byte(`{"lockfileVersion": 3, "packages": {"": {}, "node_modules/x": {"version": "1.0.0"}}}`)
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "node_modules", "x"), 0o755)
	os.WriteFile(filepath.Join(dir, "node_modules", "x", "package.json"), []byte(`{"version": "0.9.0"}`), 0o644)
	if lockedTree(dir, lock) || fromLock(dir, lock) {
		t.Fatal("a prefix at another version is taken for the lock's tree")
	}
	os.WriteFile(filepath.Join(dir, "node_modules", "x", "package.json"), []byte(`{"version": "1.0.0"}`), 0o644)
	if !lockedTree(dir, lock) || !fromLock(dir, lock) {
		t.Error("the lock's tree, installed before the lock, is not taken and recorded")
	}
}

// TestEveryLockChecks: each committed lock passes CheckLock for the
// package and version its name says.
func TestEveryLockChecks(t *testing.T) {
	names := Locks()
	if len(names) == 0 {
		t.Fatal("no committed lock")
	}
	for _, n := range names {
		id := strings.TrimSuffix(n, ".json")
		i := strings.LastIndex(id, "@")
		name, version := strings.ReplaceAll(id[:i], "+", "/"), id[i+1:]
		lock, ok := LockOf(name, version)
		if !ok || LockName(name, version) != n {
			t.Fatalf("%s: does not name its package and version", n)
		}
		if err := CheckLock(lock, name, version); err != nil {
			t.Errorf("%s: %v", n, err)
		}
	}
}

// TestCheckTree: an install is the lock's tree when every package there
// is at the lock's version and only optional ones (other platforms') are
// missing.
func TestCheckTree(t *testing.T) {
	lock := []byte(`{"lockfileVersion": 3, "packages": {"": {},
	  "node_modules/x": {"version": "1.0.0"},
	  "node_modules/x/node_modules/y": {"version": "2.0.0"},
	  "node_modules/x-darwin": {"version": "1.0.0", "optional": true}}}`)
	dir := t.TempDir()
	put := func(p, version string) {
		os.MkdirAll(filepath.Join(dir, p), 0o755)
		os.WriteFile(filepath.Join(dir, p, "package.json"), []byte(`{"version": "`+version+`"}`), 0o644)
	}
	put("node_modules/x", "1.0.0")
	if err := checkTree(dir, lock); err == nil || !strings.Contains(err.Error(), "node_modules/x/node_modules/y is missing") {
		t.Errorf("a required package missing: %v", err)
	}
	put("node_modules/x/node_modules/y", "2.0.1")
	if err := checkTree(dir, lock); err == nil || !strings.Contains(err.Error(), `is "2.0.1", the lock says 2.0.0`) {
		t.Errorf("a package at another version: %v", err)
	}
	put("node_modules/x/node_modules/y", "2.0.0")
	if err := checkTree(dir, lock); err != nil {
		t.Errorf("the lock's tree, another platform's optional package missing: %v", err)
	}
}
