// Package openaiagents drives the OpenAI Agents SDK for JavaScript (npm
// @openai/agents) as an MCP client under test: a framework, so its client
// is the host program in host/, written as the SDK's MCP guide shows (an
// MCPServerStdio per server, an Agent with them as mcpServers, run())
// against the fake OpenAI Responses API, the SDK's default. The host
// installs from its committed lock at the pinned version; it reads the
// run's config and prints JSON lines (package internal/client/host).
package openaiagents
