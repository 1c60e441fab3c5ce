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

// Info is Claude Code as the registry lists it.
var Info = client.Info{Name: Name, Display: "Claude Code", API: "anthropic-messages", Default: DefaultVersion}

// Claude is one version of Claude Code.
type Claude struct {
	client.Base
	bin string // the executable, once provisioned
	// flags holds the long options this version lists,
	// read from its --help when provisioned.
	flags map[string]bool
}

// New returns Claude Code at version, or DefaultVersion when version is
// empty.
func New(version string) client.Client { return &Claude{Base: Info.At(version)} }

// Package implements client.Published: the npm package it installs.
func (c *Claude) Package() string { return Package }

// Binary is the executable Provision found or installed.
func (c *Claude) Binary() string { return c.bin }
