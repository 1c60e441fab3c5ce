// Package copilot drives GitHub Copilot CLI as an MCP client under test: it
// installs a pinned version from npm (a native single-executable that
// unpacks its JavaScript into a package cache on first start), writes a
// per-run ~/.copilot/mcp-config.json with the lab server, runs
// "copilot -p PROMPT" headless in offline mode with a custom OpenAI
// Chat Completions provider (BYOK, COPILOT_PROVIDER_BASE_URL) pointing at
// the fake, and reads its JSON Lines output and its log.
//
// Older releases differ in where the executable unpacks its package, in
// the options they take and in whether npm serves an executable at all;
// layout.go holds those differences, by version where the version decides
// and read from the install where it does not (docs/clients.md, "Copilot
// CLI's older releases").
//
// The parsers report what they cannot read as "file:line: message" and go
// on.
package copilot
