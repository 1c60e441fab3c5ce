// Package mastra drives Mastra (npm @mastra/core, with @mastra/mcp) as an
// MCP client under test: a framework, so its client is the host program
// in host/, written as Mastra's MCP guide shows (an MCPClient, an Agent
// with tools: await mcpClient.listTools() and a model-router "openai/…"
// model, generate) against the fake OpenAI API. The host installs from
// its committed lock at the pinned version of @mastra/mcp; it reads the
// run's config and prints JSON lines (package internal/client/host).
package mastra
