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

// DefaultModel is the model named to the fake when the row names none.
const DefaultModel = "fake-model"

// Cline is one version of the Cline CLI.
type Cline struct {
	version string
	bin     string
}

// New returns the Cline CLI at version, or DefaultVersion when version is
// empty.
func New(version string) client.Client {
	if version == "" {
		version = DefaultVersion
	}
	return &Cline{version: version}
}

// Spec implements client.Client.
func (c *Cline) Spec() client.Spec { return client.Spec{Name: Name, Version: c.version} }

// API implements client.Client.
func (c *Cline) API() string { return "openai-chat" }

// Provision implements client.Client: npm installs cline, whose platform
// package holds the executable, run directly.
func (c *Cline) Provision(ctx context.Context, progress io.Writer) error {
	arch := map[string]string{"amd64": "x64", "arm64": "arm64"}[runtime.GOARCH]
	bin, err := npm.EnsureFile(ctx, npm.Package{Client: Name, Version: c.version, Name: "cline"}, progress, "binary",
		"node_modules/@cline/cli-"+runtime.GOOS+"-"+arch+"/bin/cline", "node_modules/cline/bin/.cline")
	if err != nil {
		return err
	}
	c.bin = bin
	return nil
}
