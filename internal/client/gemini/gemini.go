package gemini

import (
	"context"
	"io"

	"github.com/instrlab/instrlab/internal/client"
	"github.com/instrlab/instrlab/internal/client/npm"
	"github.com/instrlab/instrlab/internal/client/pins"
)

// Name is the client's name in -client flags.
const Name = "gemini"

// DefaultVersion is the version run when -client names no version: its
// pin in internal/client/pins.
var DefaultVersion = pins.Version(Name)

// Info is Gemini CLI as the registry lists it.
var Info = client.Info{Name: Name, Display: "Gemini CLI", API: "gemini", Default: DefaultVersion}

// Floor is the oldest version the adapter drives: runs read
// --output-format stream-json, which 0.1.1 and 0.2.1 do not know (swept,
// atlas/gemini@0.1.1) and whose choices in 0.10.0's dist/src/config
// are text and json only; 0.11.3's list it.
var Floor = client.Floor{Client: Name, Min: "0.11.3", Lack: "--output-format stream-json",
	Evidence: "0.1.1 and 0.2.1 refused it, atlas/gemini@0.1.1; 0.10.0's config offers text and json only"}

// Package is its npm package.
const Package = "@google/gemini-cli"

// Gemini is one version of Gemini CLI.
type Gemini struct {
	client.Base
	node   string // the node executable
	script string // bundle/gemini.js, once provisioned
}

// New returns Gemini CLI at version, or DefaultVersion when version is empty.
func New(version string) client.Client { return &Gemini{Base: Info.At(version)} }

// Package implements client.Published: the npm package it installs.
func (g *Gemini) Package() string { return Package }

// Provision implements client.Client: npm installs @google/gemini-cli; it
// runs on the node found on PATH.
func (g *Gemini) Provision(ctx context.Context, progress io.Writer) error {
	if err := Floor.Check(g.Version); err != nil {
		return err
	}
	node, script, err := npm.NodeScript(ctx, npm.Package{Client: Name, Version: g.Version, Name: Package}, progress,
		"node_modules/@google/gemini-cli/bundle/gemini.js", "node_modules/@google/gemini-cli/dist/index.js")
	if err != nil {
		return err
	}
	g.node, g.script = node, script
	return nil
}

// Supports implements atlas.Supporter: versions before Floor.Min are
// refused before anything is installed.
func (g *Gemini) Supports(version string) error { return Floor.Check(version) }
