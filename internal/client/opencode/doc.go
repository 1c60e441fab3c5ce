// Package opencode drives opencode as an MCP client under test: it installs
// a pinned version from npm (the native binary of the platform package),
// writes a per-run opencode.json in the working folder with a provider that
// speaks OpenAI Chat Completions to the fake API and the lab server as a
// local MCP server, runs "opencode run --format json" with its logs on
// stderr, and reads the JSON events and the log.
//
// The parsers report what they cannot read as "file:line: message" and go
// on.
package opencode
