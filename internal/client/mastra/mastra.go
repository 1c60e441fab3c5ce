package mastra

import (
	"embed"

	"github.com/instrlab/instrlab/internal/client"
	"github.com/instrlab/instrlab/internal/client/host"
	"github.com/instrlab/instrlab/internal/client/npm"
	"github.com/instrlab/instrlab/internal/client/pins"
)

// Name is the client's name in -client flags.
const Name = "mastra"

// DefaultVersion is the version of @mastra/mcp run when -client names no
// version: its pin in internal/client/pins, which host/package.json names
// too.
var DefaultVersion = pins.Version(Name)

// Info is Mastra as the registry lists it.
var Info = client.Info{Name: Name, Display: "Mastra", API: "openai-responses", Default: DefaultVersion}

// Package is the npm package whose releases are its versions: Mastra's
// MCP client.
const Package = "@mastra/mcp"

// DefaultModel is the model given to the fake when the row names none
// (the host asks the model router for "openai/" and it).
const DefaultModel = "gpt-4o-mini"

// Steps is the bound on model turns the host passes generate when the
// row names none.
const Steps = 5

//go:embed host
var files embed.FS

// Host is the host program and its locked dependencies.
var Host = npm.Host{Client: Name, Package: Package, Files: host.Sub(files, "host"), Script: "host.mjs", Dir: "internal/client/mastra/host"}

// arms: the guide's MCPClient keeps a server's instructions to itself;
// forwardInstructions, a server option off by default, appends them to
// the agent's system prompt.
var arms = []client.Arm{
	{Name: "default", Default: true, Says: "the guide's MCPClient: forwardInstructions left off, so no server's instructions are passed"},
	{Name: "forward-instructions", Settings: map[string]any{"forwardInstructions": true},
		Says: "forwardInstructions: true on every server: its instructions appended to the agent's system prompt"},
	// Models of the router's openai list that its schema compatibility
	// layers (@mastra/schema-compat, chosen by the model's id) tell
	// apart from the default gpt-4o-mini in their Zod path: docs/clients.md.
	// A server's tools, JSON Schema, were measured the same under each.
	{Name: "model-gpt-4-1", Model: "gpt-4.1",
		Says: "OpenAISchemaCompatLayer without gpt-4o-mini's exception, which in its Zod path moves a string's regex check into the description"},
	{Name: "model-o4-mini", Model: "o4-mini",
		Says: "an id with o1, o3 or o4: OpenAIReasoningSchemaCompatLayer (a default value moved into the description, number and string checks by its own handlers)"},
	{Name: "model-gpt-5-5", Model: "gpt-5.5",
		Says: "the newest gpt id in its router's list; OpenAISchemaCompatLayer, as gpt-4.1"},
}

// New returns Mastra at version of @mastra/mcp, or DefaultVersion when
// version is empty, in its host: the fake is the OpenAI provider's base
// URL (OPENAI_BASE_URL).
func New(version string) client.Client {
	return &host.Framework{Base: Info.At(version), Host: Host, Model: DefaultModel, Steps: Steps, ArmList: arms, Env: host.OpenAIEnv}
}
