package continuecli

import (
	"context"
	"io"

	"github.com/instrlab/instrlab/internal/client"
	"github.com/instrlab/instrlab/internal/client/npm"
	"github.com/instrlab/instrlab/internal/client/pins"
)

// Name is the client's name in -client flags.
const Name = "continue"

// DefaultVersion is the version run when -client names no version: its
// pin in internal/client/pins.
var DefaultVersion = pins.Version(Name)

// Info is Continue CLI as the registry lists it.
var Info = client.Info{Name: Name, Display: "Continue CLI", API: "openai-chat", Default: DefaultVersion}

// Package is its npm package.
const Package = "@continuedev/cli"

// DefaultModel is the model named to the fake when the row names none.
const DefaultModel = "fake-model"

// Continue is one version of the Continue CLI.
type Continue struct {
	client.Base
	node   string
	script string
}

// New returns the Continue CLI at version, or DefaultVersion when version
// is empty.
func New(version string) client.Client { return &Continue{Base: Info.At(version)} }

// Package implements client.Published: the npm package it installs.
func (c *Continue) Package() string { return Package }

// Provision implements client.Client: npm installs @continuedev/cli, a
// Node.js bundle run on the node found on PATH.
func (c *Continue) Provision(ctx context.Context, progress io.Writer) error {
	node, script, err := npm.NodeScript(ctx, npm.Package{Client: Name, Version: c.Version, Name: Package}, progress,
		"node_modules/@continuedev/cli/dist/cn.js")
	if err != nil {
		return err
	}
	c.node, c.script = node, script
	return nil
}
