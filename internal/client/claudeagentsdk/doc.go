// Package claudeagentsdk drives the Claude Agent SDK (npm
// @anthropic-ai/claude-agent-sdk, which runs its own build of Claude Code
// from a platform package) as an MCP client under test: a framework, so
// its client is the host program in host/, written as the SDK's MCP guide
// shows (query with mcpServers and their tools allowed) against the fake
// Anthropic Messages API. The host installs from its committed lock at the
// pinned version; it reads the run's config and prints JSON lines (package
// internal/client/host).
package claudeagentsdk
