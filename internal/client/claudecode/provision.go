package claudecode

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/instrlab/instrlab/internal/client/npm"
)

// ErrNoNPM reports that a version had to be installed and npm is missing.
var ErrNoNPM = errors.New("npm not found on PATH")

// ErrNoVersion reports that npm does not serve the requested version.
var ErrNoVersion = errors.New("no such version on npm")

// Package is Claude Code's npm package.
const Package = "@anthropic-ai/claude-code"

// CacheDir is where version is installed: under the user's cache dir, one
// npm prefix per version, laid out as npm.Package.Dir lays out the other
// clients' installs.
func CacheDir(version string) (string, error) {
	return npm.Package{Client: Name, Version: version, Name: Package}.Dir()
}

// Provision implements client.Client. It uses claude on PATH when its
// version matches, else an earlier install in CacheDir, else installs the
// version there with npm.
func (c *Claude) Provision(ctx context.Context, progress io.Writer) error {
	if p, err := exec.LookPath("claude"); err == nil {
		if v, _ := Version(ctx, p); v == c.Version {
			c.bin = p
			return c.readFlags(ctx, "")
		}
	}
	dir, err := CacheDir(c.Version)
	if err != nil {
		return err
	}
	var bin string
	err = npm.Install(ctx, dir, Package, c.Version, progress, func(dir string) bool {
		var ok bool
		bin, ok = c.installed(ctx, dir)
		return ok
	})
	switch {
	case errors.Is(err, npm.ErrNoNPM):
		return fmt.Errorf("%w (install Node.js and npm, or put claude %s on PATH)", ErrNoNPM, c.Version)
	case errors.Is(err, npm.ErrNoVersion):
		return fmt.Errorf("npm install %s@%s: %w", Package, c.Version, ErrNoVersion)
	case err != nil:
		return err
	}
	c.bin = bin
	return c.readFlags(ctx, dir)
}

// readFlags reads which optional flags the provisioned version has; prefix
// is the npm prefix of our install ("" for claude on PATH).
func (c *Claude) readFlags(ctx context.Context, prefix string) error {
	flags, err := helpFlags(ctx, c.bin, prefix)
	if err != nil {
		return err
	}
	c.flags = flags
	return nil
}

// installed finds a binary of the right version under an npm prefix: the
// platform package's native binary (which works whether or not npm ran the
// postinstall script that links it), then the linked bin.
func (c *Claude) installed(ctx context.Context, dir string) (string, bool) {
	arch := map[string]string{"amd64": "x64", "arm64": "arm64"}[runtime.GOARCH]
	candidates := []string{
		filepath.Join(dir, "node_modules", "@anthropic-ai", "claude-code-"+runtime.GOOS+"-"+arch, "claude"),
		filepath.Join(dir, "node_modules", "@anthropic-ai", "claude-code", "bin", "claude.exe"),
		filepath.Join(dir, "node_modules", ".bin", "claude"),
	}
	for _, p := range candidates {
		if _, err := os.Stat(p); err != nil {
			continue
		}
		if v, err := Version(ctx, p); err == nil && v == c.Version {
			return p, true
		}
	}
	return "", false
}

// Version runs bin --version and returns the version it prints, as in
// "2.1.328" from "2.1.328 (Claude Code)".
func Version(ctx context.Context, bin string) (string, error) {
	out, err := runQuiet(ctx, bin, "--version", false)
	if err != nil {
		return "", err
	}
	f := strings.Fields(string(out))
	if len(f) == 0 {
		return "", fmt.Errorf("running %s --version: empty output", bin)
	}
	return f[0], nil
}

// runQuiet runs bin with one argument (--version, --help) in a throwaway
// home, with no traffic beyond what the command itself needs, and returns
// its output (standard output alone, or with standard error when combined
// is set). A loaded machine starts a 200 MB binary or a large
// cli.js slowly: --version took 33 s at load 35, so the bound is 90 s.
func runQuiet(ctx context.Context, bin, arg string, combined bool) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, 90*time.Second)
	defer cancel()
	home, err := os.MkdirTemp("", "instrlab-claude-")
	if err != nil {
		return nil, fmt.Errorf("creating a home for %s %s: %w", bin, arg, err)
	}
	defer os.RemoveAll(home)
	cmd := exec.CommandContext(ctx, bin, arg)
	cmd.Env = []string{"PATH=/usr/local/bin:/usr/bin:/bin", "HOME=" + home, "TMPDIR=" + home,
		"DISABLE_TELEMETRY=1", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1"}
	run := cmd.Output
	if combined {
		run = cmd.CombinedOutput
	}
	out, err := run()
	if err != nil {
		return nil, fmt.Errorf("running %s %s: %w", bin, arg, err)
	}
	return out, nil
}
