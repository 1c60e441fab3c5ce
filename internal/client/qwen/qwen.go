package qwen

import (
	"context"
	"io"

	"github.com/instrlab/instrlab/internal/client"
	"github.com/instrlab/instrlab/internal/client/npm"
)

// Name is the client's name in -client flags.
const Name = "qwen"

// DefaultVersion is the version run when -client names no version.
const DefaultVersion = "0.24.4"

// Package is its npm package.
const Package = "@qwen-code/qwen-code"

// DefaultModel is the model named to the fake when the row names none.
const DefaultModel = "fake-model"

// Qwen is one version of Qwen Code.
type Qwen struct {
	version string
	node    string
	script  string
}

// New returns Qwen Code at version, or DefaultVersion when version is empty.
func New(version string) client.Client {
	if version == "" {
		version = DefaultVersion
	}
	return &Qwen{version: version}
}

// Spec implements client.Client.
func (q *Qwen) Spec() client.Spec { return client.Spec{Name: Name, Version: q.version} }

// Package implements client.Published: the npm package it installs.
func (q *Qwen) Package() string { return Package }

// API implements client.Client.
func (q *Qwen) API() string { return "openai-chat" }

// Provision implements client.Client: npm installs @qwen-code/qwen-code; it
// runs on the node found on PATH.
func (q *Qwen) Provision(ctx context.Context, progress io.Writer) error {
	node, script, err := npm.NodeScript(ctx, npm.Package{Client: Name, Version: q.version, Name: Package}, progress,
		"node_modules/@qwen-code/qwen-code/cli-entry.js", "node_modules/@qwen-code/qwen-code/cli.js")
	if err != nil {
		return err
	}
	q.node, q.script = node, script
	return nil
}
