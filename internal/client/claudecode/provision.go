package claudecode

import (
	"bytes"
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

// CacheDir is where version is installed: under the user's cache dir, one
// npm prefix per version, laid out as npm.Package.Dir lays out the other
// clients' installs.
func CacheDir(version string) (string, error) {
	return npm.Package{Client: Name, Version: version, Name: "@anthropic-ai/claude-code"}.Dir()
}

// Provision implements client.Client. It uses claude on PATH when its
// version matches, else an earlier install in CacheDir, else installs the
// version there with npm.
func (c *Claude) Provision(ctx context.Context, progress io.Writer) error {
	if p, err := exec.LookPath("claude"); err == nil {
		if v, _ := Version(ctx, p); v == c.version {
			c.bin = p
			return nil
		}
	}
	dir, err := CacheDir(c.version)
	if err != nil {
		return err
	}
	if bin, ok := c.installed(ctx, dir); ok {
		c.bin = bin
		return nil
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		return fmt.Errorf("%w (install Node.js and npm, or put claude %s on PATH)", ErrNoNPM, c.version)
	}
	_, statErr := os.Stat(dir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("creating %s: %w", dir, err)
	}
	fresh := os.IsNotExist(statErr)
	fmt.Fprintf(progress, "installing @anthropic-ai/claude-code@%s into %s\n", c.version, dir)
	start := time.Now()
	cmd := exec.CommandContext(ctx, npm, "install", "--prefix", dir, "--no-audit", "--no-fund", "--loglevel=error",
		"@anthropic-ai/claude-code@"+c.version)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		if fresh {
			os.RemoveAll(dir) // leave no empty install behind
		}
		msg := out.String()
		if strings.Contains(msg, "ETARGET") || strings.Contains(msg, "No matching version") || strings.Contains(msg, "E404") {
			return fmt.Errorf("npm install @anthropic-ai/claude-code@%s: %w", c.version, ErrNoVersion)
		}
		return fmt.Errorf("npm install @anthropic-ai/claude-code@%s: %w\n%s", c.version, err, lastLines(msg, 10))
	}
	bin, ok := c.installed(ctx, dir)
	if !ok {
		return fmt.Errorf("npm install @anthropic-ai/claude-code@%s finished but no claude %s binary is in %s", c.version, c.version, dir)
	}
	fmt.Fprintf(progress, "installed %s@%s in %.1fs\n", Name, c.version, time.Since(start).Seconds())
	c.bin = bin
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
		if v, err := Version(ctx, p); err == nil && v == c.version {
			return p, true
		}
	}
	return "", false
}

// Version runs bin --version and returns the version it prints, as in
// "2.1.328" from "2.1.328 (Claude Code)".
func Version(ctx context.Context, bin string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	home, err := os.MkdirTemp("", "instrlab-version-")
	if err != nil {
		return "", fmt.Errorf("creating a home for %s --version: %w", bin, err)
	}
	defer os.RemoveAll(home)
	cmd := exec.CommandContext(ctx, bin, "--version")
	cmd.Env = []string{"PATH=/usr/local/bin:/usr/bin:/bin", "HOME=" + home, "TMPDIR=" + home,
		"DISABLE_TELEMETRY=1", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1"}
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("running %s --version: %w", bin, err)
	}
	f := strings.Fields(string(out))
	if len(f) == 0 {
		return "", fmt.Errorf("running %s --version: empty output", bin)
	}
	return f[0], nil
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
