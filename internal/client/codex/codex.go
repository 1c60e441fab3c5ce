package codex

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
const Name = "codex"

// DefaultVersion is the version run when -client names no version: its
// pin in internal/client/pins.
var DefaultVersion = pins.Version(Name)

// Info is Codex CLI as the registry lists it.
var Info = client.Info{Name: Name, Display: "Codex CLI", API: "openai-responses", Default: DefaultVersion}

// Package is its npm package.
const Package = "@openai/codex"

// Codex is one version of Codex CLI.
type Codex struct {
	client.Base
	bin string // the native executable, once provisioned
	// noDisable is set for a version whose exec --help lists no
	// --disable or whose features list has no plugins (see Command).
	noDisable bool
}

// New returns Codex CLI at version, or DefaultVersion when version is empty.
func New(version string) client.Client { return &Codex{Base: Info.At(version)} }

// Package implements client.Published: the npm package it installs.
func (c *Codex) Package() string { return Package }

// Provision implements client.Client: npm installs @openai/codex, whose
// platform package holds the native binary, run directly (no Node).
func (c *Codex) Provision(ctx context.Context, progress io.Writer) error {
	triple := map[string]string{"linux/amd64": "x86_64-unknown-linux-musl", "linux/arm64": "aarch64-unknown-linux-musl",
		"darwin/amd64": "x86_64-apple-darwin", "darwin/arm64": "aarch64-apple-darwin"}[runtime.GOOS+"/"+runtime.GOARCH]
	arch := map[string]string{"amd64": "x64", "arm64": "arm64"}[runtime.GOARCH]
	bin, err := npm.EnsureFile(ctx, npm.Package{Client: Name, Version: c.Version, Name: Package}, progress, "binary",
		"node_modules/@openai/codex-"+runtime.GOOS+"-"+arch+"/vendor/"+triple+"/bin/codex",
		"node_modules/@openai/codex-"+runtime.GOOS+"-"+arch+"/vendor/"+triple+"/codex/codex",
		"node_modules/@openai/codex/vendor/"+triple+"/codex/codex")
	if err != nil {
		return err
	}
	c.bin = bin
	prefix, err := npm.Package{Client: Name, Version: c.Version, Name: Package}.Dir()
	if err != nil {
		return err
	}
	flags, err := execFlags(ctx, bin, prefix)
	if err != nil {
		return fmt.Errorf("%s@%s %w", Name, c.Version, err)
	}
	c.noDisable = !flags["--disable"]
	if !c.noDisable {
		names, err := features(ctx, bin, prefix)
		if err != nil {
			return fmt.Errorf("%s@%s: %w", Name, c.Version, err)
		}
		c.noDisable = !names["plugins"]
	}
	return nil
}
