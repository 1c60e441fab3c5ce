package claudecode

import (
	"github.com/instrlab/instrlab/internal/client"
	"github.com/instrlab/instrlab/internal/client/pins"
)

// Name is the client's name in -client flags.
const Name = "claude-code"

// DefaultVersion is the version run when -client names no version: its
// pin in internal/client/pins.
var DefaultVersion = pins.Version(Name)

// Claude is one version of Claude Code.
type Claude struct {
	version string
	bin     string // the executable, once provisioned
	// flags holds the long options this version lists,
	// read from its --help when provisioned.
	flags map[string]bool
}

// New returns Claude Code at version, or DefaultVersion when version is
// empty.
func New(version string) client.Client {
	if version == "" {
		version = DefaultVersion
	}
	return &Claude{version: version}
}

// Spec implements client.Client.
func (c *Claude) Spec() client.Spec { return client.Spec{Name: Name, Version: c.version} }

// Package implements client.Published: the npm package it installs.
func (c *Claude) Package() string { return Package }

// API implements client.Client.
func (c *Claude) API() string { return "anthropic-messages" }

// Binary is the executable Provision found or installed.
func (c *Claude) Binary() string { return c.bin }
