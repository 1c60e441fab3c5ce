package langchain

import (
	"embed"

	"github.com/instrlab/instrlab/internal/client"
	"github.com/instrlab/instrlab/internal/client/host"
	"github.com/instrlab/instrlab/internal/client/npm"
	"github.com/instrlab/instrlab/internal/client/pins"
)

// Name is the client's name in -client flags.
const Name = "langchain"

// DefaultVersion is the version of @langchain/mcp-adapters run when
// -client names no version: its pin in internal/client/pins, which
// host/package.json names too.
var DefaultVersion = pins.Version(Name)

// Info is LangChain.js as the registry lists it.
var Info = client.Info{Name: Name, Display: "LangChain.js", API: "openai-chat", Default: DefaultVersion}

// Package is the npm package whose releases are its versions: the
// adapters, LangChain's MCP client.
const Package = "@langchain/mcp-adapters"

// DefaultModel is the model the README's ChatOpenAI names, given to the
// fake when the row names none.
const DefaultModel = "gpt-4o-mini"

// Turns is LangGraph's default recursion limit of 25 steps in model
// turns (two steps a turn, one to end), when the row names none.
const Turns = 12

//go:embed host
var files embed.FS

// Host is the host program and its locked dependencies.
var Host = npm.Host{Client: Name, Package: Package, Files: host.Sub(files, "host"), Script: "host.mjs", Dir: "internal/client/langchain/host"}

// arms: the README's client options left at their defaults, then the one
// its example sets that changes what a tool result becomes.
var arms = []client.Arm{
	{Name: "default", Default: true, Says: "the README's MultiServerMCPClient with its default options"},
	{Name: "standard-content-blocks", Settings: map[string]any{"useStandardContentBlocks": true},
		Says: "useStandardContentBlocks: true, as the README's example sets: tool outputs as LangChain's standard content blocks"},
}

// New returns LangChain.js at version of @langchain/mcp-adapters, or
// DefaultVersion when version is empty, in its host: the fake is
// ChatOpenAI's base URL (OPENAI_BASE_URL).
func New(version string) client.Client {
	return &host.Framework{Base: Info.At(version), Host: Host, Model: DefaultModel, Steps: Turns, ArmList: arms, Env: host.OpenAIEnv}
}
