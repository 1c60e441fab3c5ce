// Package npm installs pinned versions of MCP clients published on npm into
// instrlab's cache, one npm prefix per client and version, and finds what
// an install put there. The clients under test (Codex CLI, Gemini CLI,
// opencode, Qwen Code) share it; each says which package to install and
// which file in it to run.
package npm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"
)

// ErrNoNPM reports that a version had to be installed and npm is missing.
var ErrNoNPM = errors.New("npm not found on PATH")

// ErrNoVersion reports that npm does not serve the requested version.
var ErrNoVersion = errors.New("no such version on npm")

// A Package is one pinned install.
type Package struct {
	// Client and Version name the install's folder, as in codex@0.169.0.
	Client, Version string
	// Name is the npm package, as in @openai/codex.
	Name string
}

// Dir is the npm prefix of p under the user's cache dir.
func (p Package) Dir() (string, error) {
	base, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("finding the user cache dir: %w", err)
	}
	return filepath.Join(base, "instrlab", "clients", p.Client+"@"+p.Version), nil
}

// Installed reports the version of package name that npm put under the
// prefix dir, read from its package.json ("" when absent).
func Installed(dir, name string) string {
	v, _ := versionAt(filepath.Join(dir, "node_modules", filepath.FromSlash(name)))
	return v
}

// versionAt is the version the package.json of the package in dir says:
// "" with the error when it cannot be read, "" when it names none.
func versionAt(dir string) (string, error) {
	b, err := os.ReadFile(filepath.Join(dir, "package.json"))
	if err != nil {
		return "", err
	}
	var pj struct {
		Version string `json:"version"`
	}
	if json.Unmarshal(b, &pj) != nil {
		return "", nil
	}
	return pj.Version, nil
}

// Ensure installs p into its prefix unless that version is already there,
// and returns the prefix.
func Ensure(ctx context.Context, p Package, progress io.Writer) (string, error) {
	dir, err := p.Dir()
	if err != nil {
		return "", err
	}
	return dir, Install(ctx, dir, p.Name, p.Version, progress, func(dir string) bool { return Installed(dir, p.Name) == p.Version })
}

// Install makes sure dir holds a finished install of name@version. done
// says whether a prefix holds a usable install of it; an install counts as
// finished only once Install has recorded its size after npm succeeded,
// so one cut off half-way (killed, disk full) is removed and done again;
// a prefix that no instrlab install ever locked (made by hand, or by an
// older instrlab) is taken as it is when done accepts it.
// The install runs under the prefix's lock (see Lock); when it is done the
// cache is brought within LimitEnv by evicting the least recently used
// installs, never this one.
func Install(ctx context.Context, dir, name, version string, progress io.Writer, done func(dir string) bool) error {
	lock, locked := LockOf(name, version)
	s := setup{prepare: func(dir string) ([]string, string, error) {
		return []string{"install", "--prefix", dir, "--no-audit", "--no-fund", "--loglevel=error", "--save-exact", name + "@" + version},
			"no committed lock: npm resolves its dependencies, and their install scripts run", nil
	}}
	if locked {
		s = setup{lock: lock, prepare: func(dir string) ([]string, string, error) {
			args, err := lockedArgs(dir, name, version, lock)
			return args, "from its committed lock, no install script", err
		}}
	}
	return install(ctx, dir, name, version, progress, done, s)
}

// A setup is how install fills an empty prefix.
type setup struct {
	// lock is the tree the install must be (checkTree), nil for none.
	lock []byte
	// prepare writes what npm reads into the prefix dir and returns npm's
	// arguments and how the install is made, as progress says it.
	prepare func(dir string) (args []string, how string, err error)
}

// install is Install with the prefix filled as s says.
func install(ctx context.Context, dir, name, version string, progress io.Writer, done func(dir string) bool, s setup) error {
	lock, locked := s.lock, s.lock != nil
	finished := func() bool {
		_, sized := os.Stat(filepath.Join(dir, sizeFile))
		_, held := os.Stat(dir + ".lock")
		return (sized == nil || errors.Is(held, fs.ErrNotExist)) && done(dir) && (!locked || lockedTree(dir, lock))
	}
	if finished() {
		return MarkUsed(dir)
	}
	limit, err := LimitFromEnv()
	if err != nil {
		return err
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		return fmt.Errorf("installing %s@%s: %w (install Node.js and npm)", name, version, ErrNoNPM)
	}
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return fmt.Errorf("creating %s: %w", filepath.Dir(dir), err)
	}
	unlock, err := Lock(ctx, dir)
	if err != nil {
		return err
	}
	defer unlock()
	if finished() { // another process installed it while this one waited
		return MarkUsed(dir)
	}
	if err := os.RemoveAll(dir); err != nil { // a partial install, cut off
		return fmt.Errorf("removing the unfinished install in %s: %w", dir, err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("creating %s: %w", dir, err)
	}
	args, how, err := s.prepare(dir)
	if err != nil {
		os.RemoveAll(dir)
		return fmt.Errorf("installing %s@%s: %w", name, version, err)
	}
	fmt.Fprintf(progress, "installing %s@%s into %s (%s)\n", name, version, dir, how)
	start := time.Now()
	cmd := exec.CommandContext(ctx, npm, args...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	cmd.WaitDelay = 2 * time.Second // npm's children may hold the pipes after it is killed
	if err := cmd.Run(); err != nil {
		os.RemoveAll(dir) // leave nothing half-done behind
		msg := out.String()
		if strings.Contains(msg, "ETARGET") || strings.Contains(msg, "No matching version") || strings.Contains(msg, "E404") {
			return noVersion(name, version, msg)
		}
		if ctx.Err() != nil {
			return fmt.Errorf("installing %s@%s: cut off: %w", name, version, ctx.Err())
		}
		return fmt.Errorf("installing %s@%s with npm: %w\n%s", name, version, err, lastLines(msg, 10))
	}
	if !done(dir) {
		there := Installed(dir, name)
		os.RemoveAll(dir)
		return fmt.Errorf("installing %s@%s: npm finished but %s holds no usable install of it (package version there: %q)", name, version, dir, there)
	}
	if locked {
		if err := checkTree(dir, lock); err != nil {
			os.RemoveAll(dir)
			return fmt.Errorf("installing %s@%s: npm did not install its lock's tree: %w", name, version, err)
		}
		if err := markLocked(dir, lock); err != nil {
			os.RemoveAll(dir)
			return err
		}
	}
	if err := MarkUsed(dir); err != nil {
		os.RemoveAll(dir)
		return err
	}
	fmt.Fprintf(progress, "installed %s@%s in %.1fs\n", name, version, time.Since(start).Seconds())
	removed, err := Evict(filepath.Dir(dir), limit, dir)
	for _, r := range removed {
		fmt.Fprintf(progress, "evicted %s (%.0f MB, last used %s) to stay within %s\n", filepath.Base(r.Dir), float64(r.Size)/1e6, r.Used.Format(time.RFC3339), os.Getenv(LimitEnv))
	}
	return err
}

// Find returns the first of paths (relative to the prefix dir) that exists.
func Find(dir string, paths ...string) (string, error) {
	for _, p := range paths {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if st, err := os.Stat(full); err == nil && !st.IsDir() {
			return full, nil
		}
	}
	return "", fmt.Errorf("none of %s under %s", strings.Join(paths, ", "), dir)
}

// EnsureFile installs p like Ensure and returns the first of paths
// (relative to the prefix) that exists. what names the file in errors, as
// in "binary" or "script".
func EnsureFile(ctx context.Context, p Package, progress io.Writer, what string, paths ...string) (string, error) {
	dir, err := Ensure(ctx, p, progress)
	if err != nil {
		return "", err
	}
	file, err := Find(dir, paths...)
	if err != nil {
		return "", fmt.Errorf("finding the %s %s: %w", p.Client, what, err)
	}
	return file, nil
}

// NodeScript provisions a client that is a Node.js script in an npm
// package: it finds node on PATH, then installs p like EnsureFile, and
// returns node and the first of paths that exists.
func NodeScript(ctx context.Context, p Package, progress io.Writer, paths ...string) (node, script string, err error) {
	node, err = exec.LookPath("node")
	if err != nil {
		return "", "", fmt.Errorf("%s@%s runs on Node.js: %w", p.Client, p.Version, err)
	}
	script, err = EnsureFile(ctx, p, progress, "script", paths...)
	if err != nil {
		return "", "", err
	}
	return node, script, nil
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

var missingRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`No matching version found for (\S+?)\.?(?:\s|$)`)
})

// noVersion is the error of an install npm refused for a version it does
// not serve (ErrNoVersion), naming the package npm found missing when that
// is another one: opencode-ai@1.17.20 is served, but its install script
// wants opencode-linux-x64-baseline-musl@1.17.20, which is not.
func noVersion(name, version, npmOutput string) error {
	if m := missingRE().FindStringSubmatch(npmOutput); m != nil && m[1] != name+"@"+version {
		return fmt.Errorf("installing %s@%s: %w: npm found no %s", name, version, ErrNoVersion, m[1])
	}
	return fmt.Errorf("installing %s@%s: %w", name, version, ErrNoVersion)
}
