package kilo

import (
	"context"
	"io"
	"runtime"

	"github.com/instrlab/instrlab/internal/client"
	"github.com/instrlab/instrlab/internal/client/npm"
	"github.com/instrlab/instrlab/internal/client/opencode"
	"github.com/instrlab/instrlab/internal/client/pins"
)

// Name is the client's name in -client flags.
const Name = "kilo"

// DefaultVersion is the version run when -client names no version: its
// pin in internal/client/pins, the newest whose platform package npm
// serves (see docs/clients.md).
var DefaultVersion = pins.Version(Name)

// Info is Kilo Code CLI as the registry lists it.
var Info = client.Info{Name: Name, Display: "Kilo Code CLI", API: "openai-chat", Default: DefaultVersion}

// Package is its npm package.
const Package = "@kilocode/cli"

// Kilo is one version of the Kilo Code CLI.
type Kilo struct {
	client.Base
	bin string
}

// New returns the Kilo Code CLI at version, or DefaultVersion when version
// is empty.
func New(version string) client.Client { return &Kilo{Base: Info.At(version)} }

// Package implements client.Published: the npm package it installs.
func (k *Kilo) Package() string { return Package }

// Provision implements client.Client: npm installs @kilocode/cli, whose
// platform package holds the native binary, run directly.
func (k *Kilo) Provision(ctx context.Context, progress io.Writer) error {
	arch := map[string]string{"amd64": "x64", "arm64": "arm64"}[runtime.GOARCH]
	plat := "@kilocode/cli-" + runtime.GOOS + "-" + arch
	bin, err := npm.EnsureFile(ctx, npm.Package{Client: Name, Version: k.Version, Name: Package}, progress, "binary",
		"node_modules/"+plat+"/bin/kilo", "node_modules/"+plat+"-baseline/bin/kilo", "node_modules/"+plat+"-musl/bin/kilo")
	if err != nil {
		return err
	}
	k.bin = bin
	return nil
}

// Vendor implements client.Direct: Kilo writes opencode's config, so its
// direct arm is opencode's (opencode.DirectVendor).
func (k *Kilo) Vendor() client.Vendor { return opencode.DirectVendor }
