package claudeagentsdk

import (
	"embed"

	"github.com/instrlab/instrlab/internal/client"
	"github.com/instrlab/instrlab/internal/client/claudecode"
	"github.com/instrlab/instrlab/internal/client/host"
	"github.com/instrlab/instrlab/internal/client/npm"
	"github.com/instrlab/instrlab/internal/client/pins"
)

// Name is the client's name in -client flags.
const Name = "claude-agent-sdk"

// DefaultVersion is the version run when -client names no version: its
// pin in internal/client/pins, which host/package.json names too.
var DefaultVersion = pins.Version(Name)

// Info is the Claude Agent SDK as the registry lists it.
var Info = client.Info{Name: Name, Display: "Claude Agent SDK", API: "anthropic-messages", Default: DefaultVersion}

// Package is the npm package whose releases are its versions.
const Package = "@anthropic-ai/claude-agent-sdk"

//go:embed host
var files embed.FS

// Host is the host program and its locked dependencies.
var Host = npm.Host{Client: Name, Package: Package, Files: host.Sub(files, "host"), Script: "host.mjs", Dir: "internal/client/claudeagentsdk/host"}

// New returns the Claude Agent SDK at version, or DefaultVersion when
// version is empty, in its host: the SDK's own model and turns unless the
// row names them; its Claude Code gets Claude Code's offline environment
// (claudecode.Env).
func New(version string) client.Client {
	return &host.Framework{Base: Info.At(version), Host: Host,
		ArmList: []client.Arm{{Name: "default", Default: true, Says: "the guide: query with mcpServers and their tools allowed"},
			{Name: "approval-default", Approval: client.ApprovalDefault,
				Says: "no allowedTools, the SDK's default permission mode and no canUseTool: an app that approves nothing beforehand"},
			{Name: "approval-plan", Approval: client.ApprovalPlan,
				Says: "no allowedTools, permissionMode 'plan'"},
			// The host's model option: models of the Claude Code its
			// package bundles (2.1.337, the list and the tool search rule
			// read in its strings), besides the SDK's own default.
			{Name: "model-haiku", Model: "claude-haiku-5-5",
				Says: "Haiku 5.5, in its Claude Code's model list"},
			{Name: "model-claude-3-7", Model: "claude-3-7-sonnet-20250219",
				Says: "a claude-3 model, which its Claude Code lists as without tool search (the default of flag tengu_tool_search_unsupported_models)"}},
		Env: claudecode.Env}
}
