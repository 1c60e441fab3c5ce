package adk

import (
	"embed"

	"github.com/instrlab/instrlab/internal/client"
	"github.com/instrlab/instrlab/internal/client/host"
	"github.com/instrlab/instrlab/internal/client/npm"
	"github.com/instrlab/instrlab/internal/client/pins"
)

// Name is the client's name in -client flags.
const Name = "adk"

// DefaultVersion is the version of @google/adk run when -client names no
// version: its pin in internal/client/pins, which host/package.json names
// too.
var DefaultVersion = pins.Version(Name)

// Info is ADK for TypeScript as the registry lists it.
var Info = client.Info{Name: Name, Display: "ADK for TypeScript", API: "gemini", Default: DefaultVersion}

// Package is the npm package whose releases are its versions.
const Package = "@google/adk"

// DefaultModel is the model the guide's agent names, given to the fake
// when the row names none.
const DefaultModel = "gemini-flash-latest"

//go:embed host
var files embed.FS

// Host is the host program and its locked dependencies.
var Host = npm.Host{Client: Name, Package: Package, Files: host.Sub(files, "host"), Script: "host.mjs", Dir: "internal/client/adk/host"}

// arms: ADK's MCP toolset exposes no server instructions, and the guide's
// agent sets nothing that changes what reaches the model of a server.
var arms = []client.Arm{
	{Name: "default", Default: true, Says: "the guide's LlmAgent with an MCPToolset per server"},
}

// New returns ADK for TypeScript at version, or DefaultVersion when
// version is empty, in its host: the fake is the Gemini API's base URL
// (GOOGLE_GEMINI_BASE_URL, which @google/genai reads), its key
// GEMINI_API_KEY; the bound on model calls is ADK's own (500) unless the
// row names turns.
func New(version string) client.Client {
	return &host.Framework{Base: Info.At(version), Host: Host, Model: DefaultModel, ArmList: arms, Env: host.GeminiEnv}
}
