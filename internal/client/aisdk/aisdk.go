package aisdk

import (
	"context"
	"embed"
	"fmt"
	"io"
	"io/fs"
	"os/exec"
	"strings"

	"github.com/instrlab/instrlab/internal/client"
	"github.com/instrlab/instrlab/internal/client/host"
	"github.com/instrlab/instrlab/internal/client/npm"
	"github.com/instrlab/instrlab/internal/client/pins"
	"github.com/instrlab/instrlab/internal/evidence"
)

// Name is the client's name in -client flags.
const Name = "ai-sdk"

// DefaultVersion is the version of ai run when -client names no version:
// its pin in internal/client/pins, which host/package.json names too.
var DefaultVersion = pins.Version(Name)

// Info is the Vercel AI SDK as the registry lists it.
var Info = client.Info{Name: Name, Display: "Vercel AI SDK", API: "openai-responses", Default: DefaultVersion}

// Package is the npm package whose releases are its versions.
const Package = "ai"

// DefaultModel is the model the recipe names, given to the fake when the
// row names none.
const DefaultModel = "gpt-4o"

// Steps is the recipe's stopWhen: stepCountIs(5), when the row names no
// turns.
const Steps = 5

//go:embed host
var files embed.FS

// Host is the host program and its locked dependencies.
var Host = npm.Host{Client: Name, Package: Package, Files: sub(files, "host"), Script: "host.mjs", Dir: "internal/client/aisdk/host"}

func sub(f fs.FS, dir string) fs.FS {
	s, err := fs.Sub(f, dir)
	if err != nil {
		panic(err) // an embedded folder
	}
	return s
}

// AISDK is one version of the Vercel AI SDK, in its host.
type AISDK struct {
	client.Base
	node   string
	script string
}

// New returns the AI SDK at version, or DefaultVersion when version is
// empty.
func New(version string) client.Client { return &AISDK{Base: Info.At(version)} }

// Package implements client.Published.
func (a *AISDK) Package() string { return Package }

// Hosted is the host, which installs from its own lock (TestPinnedLocks
// checks it in place of a lock of ai alone).
func (a *AISDK) Hosted() npm.Host { return Host }

// Provision implements client.Client: the host with ai at the version.
func (a *AISDK) Provision(ctx context.Context, progress io.Writer) error {
	node, script, err := Host.Ensure(ctx, a.Version, progress)
	if err != nil {
		return err
	}
	a.node, a.script = node, script
	return nil
}

// Command implements client.Client: node runs the host on the run's
// config, with the fake as the OpenAI provider's base URL
// (OPENAI_BASE_URL, which @ai-sdk/openai reads).
func (a *AISDK) Command(ctx context.Context, r *client.Run) (*exec.Cmd, error) {
	if a.script == "" {
		return nil, fmt.Errorf("%s@%s is not provisioned", Name, a.Version)
	}
	cfg, err := host.Config(r, DefaultModel, Steps)
	if err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, a.node, a.script, cfg)
	cmd.Dir = r.Work
	cmd.Env = r.Environ(map[string]string{
		"OPENAI_API_KEY":  r.APIKey,
		"OPENAI_BASE_URL": strings.TrimRight(r.APIURL, "/") + "/v1",
	})
	return cmd, nil
}

// Observe implements client.Client: the host's JSON lines on stdout.
func (a *AISDK) Observe(e client.Evidence) client.Observation {
	var o client.Observation
	host.Read(&o, e.Dir, evidence.StdoutFile, e.Primary())
	return o
}

// Arms implements client.Armed. The recipe passes the model no system
// prompt, so a server's instructions reach it only where an app passes
// them; arm instructions is such an app: the host gives the servers'
// instructions (the MCP client's instructions property) as generateText's
// system.
func (a *AISDK) Arms() []client.Arm {
	return []client.Arm{
		{Name: "default", Default: true, Says: "the recipe: no system prompt; the servers' instructions are not passed"},
		{Name: "instructions", Settings: map[string]any{"instructions": true},
			Says: "the app passes each MCP client's instructions (joined by a blank line) as generateText's system"},
	}
}
