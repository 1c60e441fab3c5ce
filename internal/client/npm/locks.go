package npm

import (
	"bytes"
	"context"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
)

// Every pinned client is installed from a lockfile committed here
// (locks/, one package-lock.json per package and version), with npm ci
// semantics: the whole tree as the lock says, each package checked
// against its integrity hash, and no install script run. Two users of
// one pin run the same code, and an install hook of any package in the
// tree never runs on their machine. The clients run without their
// scripts: Claude Code's and opencode's postinstall only link the
// platform package's binary, which the adapters run directly, and
// Cline's is optional ("|| true"); each pin is run offline in CI or
// behind INSTRLAB_E2E after such an install. A version without a lock
// (a sweep over releases) is installed as npm resolves it, scripts and
// all, and says so.
//
// The locks are made and checked by TestPinnedLocks
// (internal/client/clients): go test ./internal/client/clients -run
// Locks -update, with npm and the registry, after a pin moves.

//go:embed locks/*.json
var locks embed.FS

// lockedFile is where an install from a lock records the lock's hash, so
// that a prefix installed otherwise (before locks, or from another lock)
// is installed again.
const lockedFile = ".instrlab-lock"

// LockName is the file under locks/ that holds name@version's lock.
func LockName(name, version string) string {
	return strings.ReplaceAll(name, "/", "+") + "@" + version + ".json"
}

// LockOf returns the committed lockfile of name@version, if any.
func LockOf(name, version string) ([]byte, bool) {
	b, err := locks.ReadFile(path.Join("locks", LockName(name, version)))
	return b, err == nil
}

// Locks lists the committed lockfiles' names.
func Locks() []string {
	names, _ := fs.Glob(locks, "locks/*.json")
	for i, n := range names {
		names[i] = path.Base(n)
	}
	return names
}

// CheckLock reports what is wrong with lock as name@version's: it must be
// an npm lockfile (version 2 or 3) whose root depends on exactly
// name@version, whose entry for name is that version, and in which every
// package fetched from a registry has an integrity hash.
func CheckLock(lock []byte, name, version string) error {
	l, err := parseLock(lock)
	if err != nil {
		return err
	}
	if l.LockfileVersion < 2 {
		return fmt.Errorf("lockfileVersion %d: want 2 or 3", l.LockfileVersion)
	}
	root := l.Packages[""]
	if len(root.Dependencies) != 1 || root.Dependencies[name] != version {
		return fmt.Errorf("its root depends on %v, want only %s@%s", root.Dependencies, name, version)
	}
	if got := l.Packages["node_modules/"+name].Version; got != version {
		return fmt.Errorf("it locks %s at %q, want %s", name, got, version)
	}
	return l.checkIntegrity()
}

// checkIntegrity reports a package fetched from a registry without a
// sha512 integrity hash.
func (l lockFile) checkIntegrity() error {
	for p, e := range l.Packages {
		if p != "" && !e.Link && e.Resolved != "" && !strings.HasPrefix(e.Integrity, "sha512-") {
			return fmt.Errorf("%s has no sha512 integrity", p)
		}
	}
	return nil
}

// A lockFile is what instrlab reads of a package-lock.json.
type lockFile struct {
	LockfileVersion int                    `json:"lockfileVersion"`
	Packages        map[string]lockedEntry `json:"packages"`
}

// A lockedEntry is one package of a lock, by its path ("" the root).
type lockedEntry struct {
	Version      string            `json:"version"`
	Resolved     string            `json:"resolved"`
	Integrity    string            `json:"integrity"`
	Link         bool              `json:"link"`
	Optional     bool              `json:"optional"`
	Dev          bool              `json:"dev"`
	Dependencies map[string]string `json:"dependencies"`
}

func parseLock(lock []byte) (lockFile, error) {
	var l lockFile
	if err := json.Unmarshal(lock, &l); err != nil {
		return l, fmt.Errorf("not a package-lock.json: %w", err)
	}
	return l, nil
}

// MakeLock resolves name@version with npm, without installing it or
// running any script, and returns the lockfile npm writes.
func MakeLock(ctx context.Context, name, version string) ([]byte, error) {
	npm, err := exec.LookPath("npm")
	if err != nil {
		return nil, ErrNoNPM
	}
	dir, err := os.MkdirTemp("", "instrlab-lock-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	cmd := exec.CommandContext(ctx, npm, "install", "--package-lock-only", "--ignore-scripts", "--no-audit", "--no-fund",
		"--loglevel=error", "--save-exact", name+"@"+version)
	cmd.Dir = dir
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("npm install --package-lock-only %s@%s: %w\n%s", name, version, err, lastLines(out.String(), 10))
	}
	lock, err := os.ReadFile(filepath.Join(dir, "package-lock.json"))
	if err != nil {
		return nil, err
	}
	if err := CheckLock(lock, name, version); err != nil {
		return nil, fmt.Errorf("the lock npm made for %s@%s: %w", name, version, err)
	}
	return lock, nil
}

// lockHash names a lock in lockedFile.
func lockHash(lock []byte) string {
	h := sha256.Sum256(lock)
	return hex.EncodeToString(h[:])
}

// fromLock reports whether dir was installed from lock.
func fromLock(dir string, lock []byte) bool {
	b, err := os.ReadFile(filepath.Join(dir, lockedFile))
	return err == nil && strings.TrimSpace(string(b)) == lockHash(lock)
}

// lockedTree reports whether dir holds lock's tree: installed from it, or
// found to be it (an install made before the lock, or by hand, every
// package at the lock's version), which is then recorded as installed
// from it.
func lockedTree(dir string, lock []byte) bool {
	if fromLock(dir, lock) {
		return true
	}
	return checkTree(dir, lock) == nil && markLocked(dir, lock) == nil
}

// lockedArgs prepares dir to install name@version from lock (its
// package.json and package-lock.json) and returns npm's arguments: npm
// install of what they name, no script run, nothing saved. Not npm ci,
// which refuses a lock that lacks an optional package of another
// platform that the registry a lock was made from does not serve (as
// this project's mirror does for Qwen Code's clipboard packages); what
// npm ci would guarantee, that the tree is the lock's, checkTree checks.
func lockedArgs(dir, name, version string, lock []byte) ([]string, error) {
	pj, _ := json.Marshal(map[string]any{"dependencies": map[string]string{name: version}})
	for file, data := range map[string][]byte{"package.json": pj, "package-lock.json": lock} {
		if err := os.WriteFile(filepath.Join(dir, file), data, 0o644); err != nil {
			return nil, err
		}
	}
	return []string{"install", "--prefix", dir, "--ignore-scripts", "--no-save", "--no-audit", "--no-fund", "--loglevel=error"}, nil
}

// checkTree reports the first package under dir whose version is not
// the one lock gives it, or one lock requires (not optional) that is
// missing: an install that is not the lock's tree.
func checkTree(dir string, lock []byte) error {
	l, err := parseLock(lock)
	if err != nil {
		return err
	}
	for p, e := range l.Packages {
		if p == "" || e.Link || e.Dev {
			continue
		}
		v, err := versionAt(filepath.Join(dir, filepath.FromSlash(p)))
		if errors.Is(err, fs.ErrNotExist) {
			if e.Optional {
				continue // another platform's
			}
			return fmt.Errorf("%s is missing", p)
		}
		if v != e.Version {
			return fmt.Errorf("%s is %q, the lock says %s", p, v, e.Version)
		}
	}
	return nil
}

// markLocked records that dir was installed from lock.
func markLocked(dir string, lock []byte) error {
	if err := os.WriteFile(filepath.Join(dir, lockedFile), []byte(lockHash(lock)+"\n"), 0o644); err != nil {
		return fmt.Errorf("recording the lock of %s: %w", dir, err)
	}
	return nil
}
