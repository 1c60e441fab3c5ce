// Package langchain drives LangChain.js (npm langchain, with
// @langchain/mcp-adapters and @langchain/openai) as an MCP client under
// test: a framework, so its client is the host program in host/, written
// as @langchain/mcp-adapters' README shows (a MultiServerMCPClient,
// getTools, a ChatOpenAI model, createAgent, invoke) against the fake
// OpenAI Chat Completions API, ChatOpenAI's default. The host installs
// from its committed lock at the pinned version of @langchain/mcp-adapters;
// it reads the run's config and prints JSON lines (package
// internal/client/host).
package langchain
