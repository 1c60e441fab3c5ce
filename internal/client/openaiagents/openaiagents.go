package openaiagents

import (
	"embed"

	"github.com/instrlab/instrlab/internal/client"
	"github.com/instrlab/instrlab/internal/client/host"
	"github.com/instrlab/instrlab/internal/client/npm"
	"github.com/instrlab/instrlab/internal/client/pins"
)

// Name is the client's name in -client flags.
const Name = "openai-agents"

// DefaultVersion is the version of @openai/agents run when -client names
// no version: its pin in internal/client/pins, which host/package.json
// names too.
var DefaultVersion = pins.Version(Name)

// Info is the OpenAI Agents SDK as the registry lists it.
var Info = client.Info{Name: Name, Display: "OpenAI Agents SDK", API: "openai-responses", Default: DefaultVersion}

// Package is the npm package whose releases are its versions.
const Package = "@openai/agents"

// MaxTurns is the SDK's default bound on an agent's turns
// (DEFAULT_MAX_TURNS in @openai/agents-core 0.20.0), when the row names
// none.
const MaxTurns = 10

//go:embed host
var files embed.FS

// Host is the host program and its locked dependencies.
var Host = npm.Host{Client: Name, Package: Package, Files: host.Sub(files, "host"), Script: "host.mjs", Dir: "internal/client/openaiagents/host"}

// arms: the guide's servers give the model a tool result's content (the
// SDK's default); its option useStructuredContent gives it a result's
// structuredContent where there is one. The SDK's MCP servers expose no
// server instructions (read in @openai/agents-core 0.20.0's types), so
// no arm can pass them.
var arms = []client.Arm{
	{Name: "default", Default: true, Says: "the guide: MCPServerStdio with its defaults; the agent's own instructions only"},
	{Name: "structured-content", Settings: map[string]any{"useStructuredContent": true},
		Says: "every server with useStructuredContent: true: the model gets a result's structuredContent where it has one"},
}

// New returns the Agents SDK at version, or DefaultVersion when version
// is empty, in its host: its model is the SDK's default unless the row
// names one; the fake is the OpenAI client's base URL (OPENAI_BASE_URL).
func New(version string) client.Client {
	return &host.Framework{Base: Info.At(version), Host: Host, Steps: MaxTurns, ArmList: arms, Env: host.OpenAIEnv}
}
