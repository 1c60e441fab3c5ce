package opencode

import (
	"context"
	"fmt"
	"io"
	"runtime"

	"github.com/instrlab/instrlab/internal/client"
	"github.com/instrlab/instrlab/internal/client/npm"
	"github.com/instrlab/instrlab/internal/client/pins"
)

// Name is the client's name in -client flags.
const Name = "opencode"

// DefaultVersion is the version run when -client names no version: its
// pin in internal/client/pins.
var DefaultVersion = pins.Version(Name)

// Info is opencode as the registry lists it.
var Info = client.Info{Name: Name, Display: "opencode", API: "openai-chat", Default: DefaultVersion}

// Package is its npm package.
const Package = "opencode-ai"

// Opencode is one version of opencode.
type Opencode struct {
	client.Base
	bin          string
	cacheVersion string // see cacheVersion; "" when the binary names none
}

// New returns opencode at version, or DefaultVersion when version is empty.
func New(version string) client.Client { return &Opencode{Base: Info.At(version)} }

// Package implements client.Published: the npm package it installs.
func (c *Opencode) Package() string { return Package }

// Provision implements client.Client: npm installs opencode-ai, whose
// platform package holds the native binary, run directly.
func (c *Opencode) Provision(ctx context.Context, progress io.Writer) error {
	arch := map[string]string{"amd64": "x64", "arm64": "arm64"}[runtime.GOARCH]
	plat := "opencode-" + runtime.GOOS + "-" + arch
	bin, err := npm.EnsureFile(ctx, npm.Package{Client: Name, Version: c.Version, Name: Package}, progress, "binary",
		"node_modules/"+plat+"/bin/opencode", "node_modules/"+plat+"-baseline/bin/opencode",
		"node_modules/opencode-ai/bin/opencode.exe")
	if err != nil {
		return err
	}
	prefix, err := npm.Package{Client: Name, Version: c.Version, Name: Package}.Dir()
	if err != nil {
		return err
	}
	if _, err := runFlags(ctx, bin, prefix); err != nil {
		return fmt.Errorf("%s@%s %w", Name, c.Version, err)
	}
	if c.cacheVersion, err = cacheVersion(bin, prefix); err != nil {
		return fmt.Errorf("reading the cache version of %s@%s: %w", Name, c.Version, err)
	}
	c.bin = bin
	return nil
}

// Vendor implements client.Direct (DirectVendor).
func (c *Opencode) Vendor() client.Vendor { return DirectVendor }
