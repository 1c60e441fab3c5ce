package droid

import (
	"context"
	"io"
	"runtime"

	"github.com/instrlab/instrlab/internal/client"
	"github.com/instrlab/instrlab/internal/client/npm"
	"github.com/instrlab/instrlab/internal/client/pins"
)

// Name is the client's name in -client flags.
const Name = "droid"

// DefaultVersion is the version run when -client names no version: its
// pin in internal/client/pins.
var DefaultVersion = pins.Version(Name)

// Info is Droid as the registry lists it: a custom model of provider
// generic-chat-completion-api speaks OpenAI Chat Completions.
var Info = client.Info{Name: Name, Display: "Droid", API: "openai-chat", Default: DefaultVersion}

// DefaultModel is the model named to the fake when the row names none.
const DefaultModel = "fake-model"

// Droid is one version of Factory's Droid CLI.
type Droid struct {
	client.Base
	bin string
}

// New returns Droid at version, or DefaultVersion when version is empty.
func New(version string) client.Client { return &Droid{Base: Info.At(version)} }

// Package implements client.Published: the platform package this machine
// runs. @factory/cli only points at it, and npm serves @factory/cli at
// versions whose platform packages it does not serve (docs/clients.md), so
// the platform package is the one installed and the one whose versions a
// sweep lists.
func (d *Droid) Package() string {
	arch := map[string]string{"amd64": "x64", "arm64": "arm64"}[runtime.GOARCH]
	return "@factory/cli-" + runtime.GOOS + "-" + arch
}

// Provision implements client.Client: npm installs the platform package,
// whose executable is run directly.
func (d *Droid) Provision(ctx context.Context, progress io.Writer) error {
	pkg := d.Package()
	bin, err := npm.EnsureFile(ctx, npm.Package{Client: Name, Version: d.Version, Name: pkg}, progress, "binary",
		"node_modules/"+pkg+"/bin/droid")
	if err != nil {
		return err
	}
	d.bin = bin
	return nil
}
