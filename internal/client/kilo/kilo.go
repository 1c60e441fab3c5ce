package kilo

import (
	"context"
	"io"
	"runtime"

	"github.com/instrlab/instrlab/internal/client"
	"github.com/instrlab/instrlab/internal/client/npm"
	"github.com/instrlab/instrlab/internal/client/opencode"
	"github.com/instrlab/instrlab/internal/client/pins"
	"golang.org/x/sys/cpu"
)

// Name is the client's name in -client flags.
const Name = "kilo"

// DefaultVersion is the version run when -client names no version: its
// pin in internal/client/pins (see docs/clients.md).
var DefaultVersion = pins.Version(Name)

// Info is Kilo Code CLI as the registry lists it.
var Info = client.Info{Name: Name, Display: "Kilo Code CLI", API: "openai-chat", Default: DefaultVersion}

// Package is its npm package, which only points at the platform package
// that holds the executable (Kilo.Package).
const Package = "@kilocode/cli"

// Kilo is one version of the Kilo Code CLI.
type Kilo struct {
	client.Base
	bin string
}

// New returns the Kilo Code CLI at version, or DefaultVersion when version
// is empty.
func New(version string) client.Client { return &Kilo{Base: Info.At(version)} }

// Package implements client.Published: the platform package this machine
// runs, @kilocode/cli-linux-x64 here (-baseline on an x86-64 without AVX2,
// as @kilocode/cli's own install script picks). npm serves @kilocode/cli
// at versions whose platform packages it does not serve (7.8.1) and
// platform packages at versions @kilocode/cli was never published at
// (7.7.9), so the platform package is the one installed and the one whose
// versions a sweep lists, as Droid's (docs/clients.md).
func (k *Kilo) Package() string {
	arch := map[string]string{"amd64": "x64", "arm64": "arm64"}[runtime.GOARCH]
	p := "@kilocode/cli-" + runtime.GOOS + "-" + arch
	if runtime.GOARCH == "amd64" && !cpu.X86.HasAVX2 {
		p += "-baseline"
	}
	return p
}

// Provision implements client.Client: npm installs the platform package,
// whose native executable is run directly. A prefix that holds
// @kilocode/cli (installed so before) has the platform package beside it.
func (k *Kilo) Provision(ctx context.Context, progress io.Writer) error {
	plat := k.Package()
	bin, err := npm.EnsureFile(ctx, npm.Package{Client: Name, Version: k.Version, Name: plat}, progress, "binary",
		"node_modules/"+plat+"/bin/kilo")
	if err != nil {
		return err
	}
	k.bin = bin
	return nil
}

// Vendor implements client.Direct: Kilo writes opencode's config, so its
// direct arm is opencode's (opencode.DirectVendor).
func (k *Kilo) Vendor() client.Vendor { return opencode.DirectVendor }
