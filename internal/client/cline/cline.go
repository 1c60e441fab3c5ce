package cline

import (
	"context"
	"io"
	"runtime"

	"github.com/instrlab/instrlab/internal/client"
	"github.com/instrlab/instrlab/internal/client/npm"
	"github.com/instrlab/instrlab/internal/client/pins"
)

// Name is the client's name in -client flags.
const Name = "cline"

// DefaultVersion is the version run when -client names no version: its
// pin in internal/client/pins.
var DefaultVersion = pins.Version(Name)

// Info is Cline CLI as the registry lists it.
var Info = client.Info{Name: Name, Display: "Cline CLI", API: "openai-chat", Default: DefaultVersion}

// DefaultModel is the model named to the fake when the row names none.
const DefaultModel = "fake-model"

// Cline is one version of the Cline CLI.
type Cline struct {
	client.Base
	// bin is the executable (3.x) or the script (2.x), which node runs.
	bin, node string
}

// New returns the Cline CLI at version, or DefaultVersion when version is
// empty.
func New(version string) client.Client { return &Cline{Base: Info.At(version)} }

// Package is its npm package.
const Package = "cline"

// Package implements client.Published: the npm package it installs, whose
// versions a sweep and the pins' proposal (internal/client/pins) list.
func (c *Cline) Package() string { return Package }

// Provision implements client.Client: npm installs cline and the
// executable of its line (lines.go) is found: 3.x's platform package holds
// a Bun executable, run directly; 2.x's is a Node script. A version
// before 1.0.0, and 1.x, are refused before anything is installed
// (refused).
func (c *Cline) Provision(ctx context.Context, progress io.Writer) error {
	if err := refused(c.Version); err != nil {
		return err
	}
	p := npm.Package{Client: Name, Version: c.Version, Name: Package}
	if lineOf(c.Version) == nodeCLI {
		node, script, err := npm.NodeScript(ctx, p, progress, "node_modules/cline/dist/cli.mjs")
		if err != nil {
			return err
		}
		c.node, c.bin = node, script
		return nil
	}
	arch := map[string]string{"amd64": "x64", "arm64": "arm64"}[runtime.GOARCH]
	bin, err := npm.EnsureFile(ctx, p, progress, "binary",
		"node_modules/@cline/cli-"+runtime.GOOS+"-"+arch+"/bin/cline", "node_modules/cline/bin/.cline")
	if err != nil {
		return err
	}
	c.bin = bin
	return nil
}
