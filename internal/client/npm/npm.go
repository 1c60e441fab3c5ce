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
	"os"
	"os/exec"
	"path/filepath"
	"strings"
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
	b, err := os.ReadFile(filepath.Join(dir, "node_modules", filepath.FromSlash(name), "package.json"))
	if err != nil {
		return ""
	}
	var pj struct {
		Version string `json:"version"`
	}
	if json.Unmarshal(b, &pj) != nil {
		return ""
	}
	return pj.Version
}

// Ensure installs p into its prefix unless that version is already there,
// and returns the prefix.
func Ensure(ctx context.Context, p Package, progress io.Writer) (string, error) {
	dir, err := p.Dir()
	if err != nil {
		return "", err
	}
	if Installed(dir, p.Name) == p.Version {
		return dir, nil
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		return "", fmt.Errorf("installing %s@%s: %w (install Node.js and npm)", p.Name, p.Version, ErrNoNPM)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("creating %s: %w", dir, err)
	}
	fmt.Fprintf(progress, "installing %s@%s into %s\n", p.Name, p.Version, dir)
	start := time.Now()
	cmd := exec.CommandContext(ctx, npm, "install", "--prefix", dir, "--no-audit", "--no-fund", "--loglevel=error",
		"--save-exact", p.Name+"@"+p.Version)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		msg := out.String()
		if strings.Contains(msg, "ETARGET") || strings.Contains(msg, "No matching version") || strings.Contains(msg, "E404") {
			return "", fmt.Errorf("installing %s@%s: %w", p.Name, p.Version, ErrNoVersion)
		}
		return "", fmt.Errorf("installing %s@%s with npm: %w\n%s", p.Name, p.Version, err, lastLines(msg, 10))
	}
	if v := Installed(dir, p.Name); v != p.Version {
		return "", fmt.Errorf("installing %s@%s: npm finished but %s holds version %q", p.Name, p.Version, dir, v)
	}
	fmt.Fprintf(progress, "installed %s@%s in %.1fs\n", p.Name, p.Version, time.Since(start).Seconds())
	return dir, nil
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
