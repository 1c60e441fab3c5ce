package copilot

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/instrlab/instrlab/internal/client"
	"github.com/instrlab/instrlab/internal/version"
)

// The versions at which what a run needs changed, from the installs the
// atlas sweep of 2026-12-02 left (0.0.380 to 1.0.102) and the changelog
// each package ships (changelog.json).
const (
	// TelemetryFlagSince is the first release whose command line takes
	// --disable-client-telemetry (changelog 1.0.100; 1.0.102's
	// prebuilds/linux-x64/cli-native.node names it, 1.0.92's does not, and
	// 1.0.92 exits 1 on it: "It looks like your prompt was not quoted").
	TelemetryFlagSince = "1.0.100"
	// CLIMainSince is the first release whose unpacked package starts
	// from cli-main.js (1.0.92 and 1.0.102 have it; 1.0.89 and older
	// start from app.js or index.js, which every unpacked version has).
	CLIMainSince = "1.0.92"
)

// Floor is the oldest version the adapter drives: a run reads the JSON
// Lines of --output-format json, which the changelog adds in 0.0.422. The
// 0.0.380 and 0.0.409 installs know neither that option nor
// COPILOT_PROVIDER_BASE_URL (their JavaScript names neither; their only
// other provider is an undocumented COPILOT_ENABLE_ALT_PROVIDERS path,
// not tried), and 0.0.340's dependency keytar-forked-forked is no longer
// on npm.
var Floor = client.Floor{Client: Name, Min: "0.0.422", Lack: "--output-format json",
	Evidence: "changelog 0.0.422; the 0.0.380 and 0.0.409 packages name neither it nor COPILOT_PROVIDER_BASE_URL"}

// Supports implements atlas.Supporter: versions before Floor.Min are
// refused before anything is installed.
func (c *Copilot) Supports(version string) error { return Floor.Check(version) }

// entry is the file of the unpacked package that shows version was
// unpacked whole.
func entry(v string) string {
	if version.Valid(v) && version.Compare(v, CLIMainSince) < 0 {
		return "index.js"
	}
	return "cli-main.js"
}

// pkgRoots are where the executable unpacks its package, relative to the
// HOME it unpacks with (COPILOT_PKG_CACHE_HOME set to that HOME too), each
// seen in the installs: "pkg" is COPILOT_PKG_CACHE_HOME's (1.0.83 to
// 1.0.102 read it), ".cache/copilot/pkg" is XDG_CACHE_HOME's default
// (1.0.11 to 1.0.75, whose executables read only COPILOT_CACHE_HOME, the
// client's cache for everything), ".copilot/pkg" is the home's (0.0.409,
// and "~/.copilot/pkg" in the 0.0.421 changelog).
var pkgRoots = []string{"pkg", ".cache/copilot/pkg", ".copilot/pkg"}

// ErrNotUnpacked reports that the executable left no unpacked package for
// its version under any of pkgRoots.
var ErrNotUnpacked = errors.New("no unpacked package")

// findUnpacked returns the root (one of pkgRoots) under cache that holds
// plat/v with its entry file.
func findUnpacked(cache, plat, v string) (string, error) {
	for _, root := range pkgRoots {
		p := filepath.Join(cache, filepath.FromSlash(root), plat, v, entry(v))
		if st, err := os.Stat(p); err == nil && !st.IsDir() {
			return root, nil
		}
	}
	return "", fmt.Errorf("%w of %s under %s (looked for %s/%s/%s in %v)", ErrNotUnpacked, v, cache, plat, v, entry(v), pkgRoots)
}

// pkgEnv returns what a run needs to find the package unpacked under
// cache/root: COPILOT_PKG_CACHE_HOME for "pkg"; for a root under the home,
// a link there to the shared copy (made in home), so that every other
// cache of the client stays in the run's own HOME.
func pkgEnv(home, cache, root string) (map[string]string, error) {
	if root == "pkg" {
		return map[string]string{"COPILOT_PKG_CACHE_HOME": cache}, nil
	}
	link := filepath.Join(home, filepath.FromSlash(root))
	if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
		return nil, fmt.Errorf("linking the unpacked package: %w", err)
	}
	if err := os.Symlink(filepath.Join(cache, filepath.FromSlash(root)), link); err != nil && !errors.Is(err, fs.ErrExist) {
		return nil, fmt.Errorf("linking the unpacked package: %w", err)
	}
	return nil, nil
}

// nodeFloor returns the oldest Node.js major version the package's
// npm-loader.js lets run its JavaScript (it exits 1 on an older one: 22
// in 0.0.380's, 24 from 0.0.409's on), or 0 when the loader holds no such
// test. It reads at most 64 KiB of the loader.
func nodeFloor(pkg string) (int, error) {
	f, err := os.Open(filepath.Join(pkg, "npm-loader.js"))
	if err != nil {
		return 0, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, 64<<10))
	if err != nil {
		return 0, err
	}
	const test = `parseInt(process.versions.node.split(".")[0],10)<`
	_, after, ok := bytes.Cut(b, []byte(test))
	if !ok {
		return 0, nil
	}
	end := bytes.IndexFunc(after, func(r rune) bool { return r < '0' || r > '9' })
	if end < 0 {
		end = len(after)
	}
	n, err := strconv.Atoi(string(after[:end]))
	if err != nil {
		return 0, nil
	}
	return n, nil
}

// ErrNoExecutable reports a release npm serves without an executable for
// this platform, and whose package cannot run on this machine instead.
var ErrNoExecutable = errors.New("no executable")

// nodeScript returns how to run a release that npm serves without its
// platform package (29 of the 98 releases up to 1.0.102, 0.0.380 and
// 1.0.77 among them): node and the package's index.js, when the package
// has one and PATH's node is as new as its loader asks (nodeFloor); else
// ErrNoExecutable with the reason. pkg is node_modules/@github/copilot.
func nodeScript(ctx context.Context, pkg, v, plat string) (node, index string, err error) {
	index = filepath.Join(pkg, "index.js")
	if _, err := os.Stat(index); err != nil {
		return "", "", fmt.Errorf("%s@%s: %w: npm serves no @github/%s@%s, and the package holds no index.js to run on Node.js (only its loader, which looks for that executable)",
			Name, v, ErrNoExecutable, plat, v)
	}
	floor, err := nodeFloor(pkg)
	if err != nil {
		return "", "", fmt.Errorf("%s@%s: reading its loader: %w", Name, v, err)
	}
	node, err = exec.LookPath("node")
	if err != nil {
		return "", "", fmt.Errorf("%s@%s: %w: npm serves no @github/%s@%s, and its package runs on Node.js %d or newer: %v", Name, v, ErrNoExecutable, plat, v, floor, err)
	}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, node, "--version").Output()
	if err != nil {
		return "", "", fmt.Errorf("%s@%s: asking %s its version: %w", Name, v, node, err)
	}
	if major := nodeMajor(out); major < floor {
		return "", "", fmt.Errorf("%s@%s: %w: npm serves no @github/%s@%s, and its package runs on Node.js %d or newer (its npm-loader.js); %s is %s",
			Name, v, ErrNoExecutable, plat, v, floor, node, bytes.TrimSpace(out))
	}
	return node, index, nil
}

// nodeMajor reads "node --version" ("v20.20.2"): its major version, or 0.
func nodeMajor(out []byte) int {
	s, ok := strings.CutPrefix(string(bytes.TrimSpace(out)), "v")
	major, _, dot := strings.Cut(s, ".")
	n, err := strconv.Atoi(major)
	if !ok || !dot || err != nil {
		return 0
	}
	return n
}

// flags are the options of a headless run after the prompt: JSON Lines,
// the full log in the run dir, every tool allowed, no update, no custom
// instructions from the work folder, no telemetry where the version has
// the option, no color.
func flags(v, logDir string) []string {
	args := []string{"--output-format", "json", "--log-level", "all", "--log-dir", logDir,
		AllowAllTools, "--no-auto-update", "--no-custom-instructions"}
	if !version.Valid(v) || version.Compare(v, TelemetryFlagSince) >= 0 {
		args = append(args, "--disable-client-telemetry")
	}
	return append(args, "--no-color")
}
