package copilot

import (
	"context"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"runtime"
	"time"

	"github.com/instrlab/instrlab/internal/client"
	"github.com/instrlab/instrlab/internal/client/npm"
	"github.com/instrlab/instrlab/internal/client/pins"
)

// Name is the client's name in -client flags.
const Name = "copilot"

// DefaultVersion is the version run when -client names no version: its
// pin in internal/client/pins.
var DefaultVersion = pins.Version(Name)

// Info is GitHub Copilot CLI as the registry lists it.
var Info = client.Info{Name: Name, Display: "GitHub Copilot CLI", API: "openai-chat", Default: DefaultVersion}

// DefaultModel is the model named to the fake when the row names none.
const DefaultModel = "fake-model"

// Copilot is one version of GitHub Copilot CLI.
type Copilot struct {
	client.Base
	// bin is the executable; for a release npm serves without one, node,
	// with script (the package's index.js) its first argument.
	bin, script string
	// pkgCache is the HOME the executable unpacked its JavaScript into
	// once at provisioning, shared by every run; pkgRoot is where under it
	// (one of pkgRoots).
	pkgCache, pkgRoot string
}

// New returns Copilot CLI at version, or DefaultVersion when version is
// empty.
func New(version string) client.Client { return &Copilot{Base: Info.At(version)} }

// Package is its npm package.
const Package = "@github/copilot"

// Package implements client.Published: the npm package it installs, whose
// versions a sweep and the pins' proposal (internal/client/pins) list.
func (c *Copilot) Package() string { return Package }

// Provision implements client.Client: npm installs @github/copilot, whose
// platform package holds the executable; the executable then unpacks its
// package once into a cache beside the install (about 7 s), so that runs
// with a fresh HOME do not each pay for it. A release npm serves without
// the executable runs its index.js on Node.js, when the machine's is new
// enough (nodeScript).
func (c *Copilot) Provision(ctx context.Context, progress io.Writer) error {
	if err := Floor.Check(c.Version); err != nil {
		return err
	}
	arch := map[string]string{"amd64": "x64", "arm64": "arm64"}[runtime.GOARCH]
	plat := "copilot-" + runtime.GOOS + "-" + arch
	dir, err := npm.Ensure(ctx, npm.Package{Client: Name, Version: c.Version, Name: Package}, progress)
	if err != nil {
		return err
	}
	bin, err := npm.Find(dir, "node_modules/@github/"+plat+"/copilot", "node_modules/@github/copilot-linuxmusl-"+arch+"/copilot")
	if err != nil {
		node, index, err := nodeScript(ctx, filepath.Join(dir, "node_modules", "@github", "copilot"), c.Version, plat)
		if err != nil {
			return err
		}
		c.bin, c.script = node, index
		return nil
	}
	cache := filepath.Join(dir, "pkg-cache")
	pkgPlat := runtime.GOOS + "-" + arch
	root, err := findUnpacked(cache, pkgPlat, c.Version)
	if err != nil {
		fmt.Fprintf(progress, "unpacking %s@%s into %s\n", Name, c.Version, cache)
		start := time.Now()
		cmd := exec.CommandContext(ctx, bin, "--version")
		cmd.Env = []string{"PATH=/usr/local/bin:/usr/bin:/bin", "HOME=" + cache, "COPILOT_PKG_CACHE_HOME=" + cache,
			"COPILOT_SEA_EXTRACT_ONLY=1", "COPILOT_OFFLINE=true", "COPILOT_AUTO_UPDATE=false"}
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("unpacking %s@%s: %w\n%s", Name, c.Version, err, out)
		}
		if root, err = findUnpacked(cache, pkgPlat, c.Version); err != nil {
			return fmt.Errorf("unpacking %s@%s: %w", Name, c.Version, err)
		}
		fmt.Fprintf(progress, "unpacked %s@%s in %.1fs\n", Name, c.Version, time.Since(start).Seconds())
	}
	c.bin, c.pkgCache, c.pkgRoot = bin, cache, root
	return nil
}
