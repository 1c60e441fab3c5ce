// Package aisdk drives the Vercel AI SDK (npm ai, with @ai-sdk/mcp and
// @ai-sdk/openai) as an MCP client under test: a framework, so its client
// is the host program in host/, written as the SDK's MCP recipe shows (one
// MCP client per server, their tools merged, generateText with an OpenAI
// model and stopWhen: stepCountIs(5)), against the fake OpenAI Responses
// API. The host installs from its committed lock at the pinned version of
// ai; the host reads the run's config and prints JSON lines (package
// internal/client/host).
package aisdk
