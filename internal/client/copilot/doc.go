// Package copilot drives GitHub Copilot CLI as an MCP client under test: it
// installs a pinned version from npm (a native single-executable that
// unpacks its JavaScript into a package cache on first start), writes a
// per-run ~/.copilot/mcp-config.json with the lab server, runs
// "copilot -p PROMPT" headless in offline mode with a custom OpenAI
// Chat Completions provider (BYOK, COPILOT_PROVIDER_BASE_URL) pointing at
// the fake, and reads its JSON Lines output and its log.
//
// The parsers report what they cannot read as "file:line: message" and go
// on.
package copilot
