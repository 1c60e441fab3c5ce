package aisdk

import (
	"embed"

	"github.com/instrlab/instrlab/internal/client"
	"github.com/instrlab/instrlab/internal/client/host"
	"github.com/instrlab/instrlab/internal/client/npm"
	"github.com/instrlab/instrlab/internal/client/pins"
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
var Host = npm.Host{Client: Name, Package: Package, Files: host.Sub(files, "host"), Script: "host.mjs", Dir: "internal/client/aisdk/host"}

// arms: the recipe passes the model no system prompt, so a server's
// instructions reach it only where an app passes them; arm instructions
// is such an app: the host gives the servers' instructions (the MCP
// client's instructions property) as generateText's system.
var arms = []client.Arm{
	{Name: "default", Default: true, Says: "the recipe: no system prompt; the servers' instructions are not passed"},
	{Name: "instructions", Settings: map[string]any{"instructions": true},
		Says: "the app passes each MCP client's instructions (joined by a blank line) as generateText's system"},
}

// New returns the AI SDK at version, or DefaultVersion when version is
// empty, in its host: node runs it with the fake as the OpenAI provider's
// base URL (OPENAI_BASE_URL, which @ai-sdk/openai reads).
func New(version string) client.Client {
	return &host.Framework{Base: Info.At(version), Host: Host, Model: DefaultModel, Steps: Steps, ArmList: arms, Env: host.OpenAIEnv}
}
