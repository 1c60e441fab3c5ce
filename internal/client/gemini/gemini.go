package gemini

import (
	"context"
	"io"

	"github.com/instrlab/instrlab/internal/client"
	"github.com/instrlab/instrlab/internal/client/npm"
)

// Name is the client's name in -client flags.
const Name = "gemini"

// DefaultVersion is the version run when -client names no version.
const DefaultVersion = "0.61.0"

// Package is its npm package.
const Package = "@google/gemini-cli"

// Gemini is one version of Gemini CLI.
type Gemini struct {
	version string
	node    string // the node executable
	script  string // bundle/gemini.js, once provisioned
}

// New returns Gemini CLI at version, or DefaultVersion when version is empty.
func New(version string) client.Client {
	if version == "" {
		version = DefaultVersion
	}
	return &Gemini{version: version}
}

// Spec implements client.Client.
func (g *Gemini) Spec() client.Spec { return client.Spec{Name: Name, Version: g.version} }

// Package implements client.Published: the npm package it installs.
func (g *Gemini) Package() string { return Package }

// API implements client.Client.
func (g *Gemini) API() string { return "gemini" }

// Provision implements client.Client: npm installs @google/gemini-cli; it
// runs on the node found on PATH.
func (g *Gemini) Provision(ctx context.Context, progress io.Writer) error {
	node, script, err := npm.NodeScript(ctx, npm.Package{Client: Name, Version: g.version, Name: Package}, progress,
		"node_modules/@google/gemini-cli/bundle/gemini.js", "node_modules/@google/gemini-cli/dist/index.js")
	if err != nil {
		return err
	}
	g.node, g.script = node, script
	return nil
}
