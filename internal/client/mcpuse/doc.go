// Package mcpuse drives mcp-use (npm mcp-use, its 1.x line, with
// @langchain/openai) as an MCP client under test: a framework, so its
// client is the host program in host/, written as mcp-use's README shows
// (MCPClient.fromDict, a ChatOpenAI model, an MCPAgent, run) against the
// fake OpenAI Chat Completions API, ChatOpenAI's default. The host
// installs from its committed lock at the pinned version of mcp-use; it
// reads the run's config and prints JSON lines (package
// internal/client/host). mcp-use 2.x moved its client to
// @mcp-use/client, which the registry here does not serve.
package mcpuse
