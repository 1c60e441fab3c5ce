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

// Package is its npm package.
const Package = "@continuedev/cli"

// DefaultModel is the model named to the fake when the row names none.
const DefaultModel = "fake-model"

// Continue is one version of the Continue CLI.
type Continue struct {
	version string
	node    string
	script  string
}

// New returns the Continue CLI at version, or DefaultVersion when version
// is empty.
func New(version string) client.Client {
	if version == "" {
		version = DefaultVersion
	}
	return &Continue{version: version}
}

// Spec implements client.Client.
func (c *Continue) Spec() client.Spec { return client.Spec{Name: Name, Version: c.version} }

// Package implements client.Published: the npm package it installs.
func (c *Continue) Package() string { return Package }

// API implements client.Client.
func (c *Continue) API() string { return "openai-chat" }

// Provision implements client.Client: npm installs @continuedev/cli, a
// Node.js bundle run on the node found on PATH.
func (c *Continue) Provision(ctx context.Context, progress io.Writer) error {
	node, script, err := npm.NodeScript(ctx, npm.Package{Client: Name, Version: c.version, Name: Package}, progress,
		"node_modules/@continuedev/cli/dist/cn.js")
	if err != nil {
		return err
	}
	c.node, c.script = node, script
	return nil
}
