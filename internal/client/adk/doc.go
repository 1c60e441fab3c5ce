// Package adk drives Google's Agent Development Kit for TypeScript (npm
// @google/adk) as an MCP client under test: a framework, so its client is
// the host program in host/, written as ADK's MCP tools guide shows (an
// LlmAgent whose tools are an MCPToolset per server, run by an
// InMemoryRunner) against the fake Gemini API. The host installs from its
// committed lock at the pinned version of @google/adk, with the MCP SDK
// that ADK names as an optional peer; it reads the run's config and prints
// JSON lines (package internal/client/host).
package adk
