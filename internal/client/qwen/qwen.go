package qwen

import (
	"context"
	"io"

	"github.com/instrlab/instrlab/internal/client"
	"github.com/instrlab/instrlab/internal/client/npm"
	"github.com/instrlab/instrlab/internal/client/pins"
)

// Name is the client's name in -client flags.
const Name = "qwen"

// DefaultVersion is the version run when -client names no version: its
// pin in internal/client/pins.
var DefaultVersion = pins.Version(Name)

// Info is Qwen Code as the registry lists it.
var Info = client.Info{Name: Name, Display: "Qwen Code", API: "openai-chat", Default: DefaultVersion}

// Floor is the oldest version the adapter drives: runs read
// --output-format stream-json, which 0.1.3 refuses (its choices are text
// and json) and which the cli.js of 0.1.4 lacks too; 0.5.0's lists it.
var Floor = client.Floor{Client: Name, Min: "0.5.0", Lack: "--output-format stream-json",
	Evidence: "0.1.3 refused it, atlas/qwen@0.1.3; 0.1.4's cli.js offers text and json only"}

// Package is its npm package.
const Package = "@qwen-code/qwen-code"

// DefaultModel is the model named to the fake when the row names none.
const DefaultModel = "fake-model"

// Qwen is one version of Qwen Code.
type Qwen struct {
	client.Base
	node   string
	script string
}

// New returns Qwen Code at version, or DefaultVersion when version is empty.
func New(version string) client.Client { return &Qwen{Base: Info.At(version)} }

// Package implements client.Published: the npm package it installs.
func (q *Qwen) Package() string { return Package }

// Provision implements client.Client: npm installs @qwen-code/qwen-code; it
// runs on the node found on PATH.
func (q *Qwen) Provision(ctx context.Context, progress io.Writer) error {
	if err := Floor.Check(q.Version); err != nil {
		return err
	}
	node, script, err := npm.NodeScript(ctx, npm.Package{Client: Name, Version: q.Version, Name: Package}, progress,
		"node_modules/@qwen-code/qwen-code/cli-entry.js", "node_modules/@qwen-code/qwen-code/cli.js")
	if err != nil {
		return err
	}
	q.node, q.script = node, script
	return nil
}

// Supports implements atlas.Supporter: versions before Floor.Min are
// refused before anything is installed.
func (q *Qwen) Supports(version string) error { return Floor.Check(version) }
