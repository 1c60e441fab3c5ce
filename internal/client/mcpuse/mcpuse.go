package mcpuse

import (
	"embed"

	"github.com/instrlab/instrlab/internal/client"
	"github.com/instrlab/instrlab/internal/client/host"
	"github.com/instrlab/instrlab/internal/client/npm"
	"github.com/instrlab/instrlab/internal/client/pins"
)

// Name is the client's name in -client flags.
const Name = "mcp-use"

// DefaultVersion is the version of mcp-use run when -client names no
// version: its pin in internal/client/pins, which host/package.json names
// too.
var DefaultVersion = pins.Version(Name)

// Info is mcp-use as the registry lists it.
var Info = client.Info{Name: Name, Display: "mcp-use", API: "openai-chat", Default: DefaultVersion}

// Package is the npm package whose releases are its versions.
const Package = "mcp-use"

// DefaultModel is the model the README's ChatOpenAI names, given to the
// fake when the row names none.
const DefaultModel = "gpt-4o"

// Turns is MCPAgent's default maxSteps: the most model calls of a run
// (its ModelCallLimitMiddleware), when the row names none.
const Turns = 5

//go:embed host
var files embed.FS

// Host is the host program and its locked dependencies.
var Host = npm.Host{Client: Name, Package: Package, Files: host.Sub(files, "host"), Script: "host.mjs", Dir: "internal/client/mcpuse/host"}

// arms: the README's agent with its defaults.
var arms = []client.Arm{
	{Name: "default", Default: true, Says: "the README's MCPAgent({llm, client}) with its defaults"},
}

// New returns mcp-use at version, or DefaultVersion when version is
// empty, in its host: the fake is ChatOpenAI's base URL (OPENAI_BASE_URL).
// Its anonymized telemetry (PostHog and Scarf, on by default) is off with
// the variable its start-up line names, so a run sends nothing off the
// machine.
func New(version string) client.Client {
	return &host.Framework{Base: Info.At(version), Host: Host, Model: DefaultModel, Steps: Turns, ArmList: arms, Env: env}
}

func env(r *client.Run) map[string]string {
	e := host.OpenAIEnv(r)
	e["MCP_USE_ANONYMIZED_TELEMETRY"] = "false"
	return e
}
