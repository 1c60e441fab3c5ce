// Package codex drives OpenAI's Codex CLI as an MCP client under test: it
// installs a pinned version from npm (the native binary of the platform
// package), writes a per-run $CODEX_HOME/config.toml that points a custom
// provider at the fake OpenAI Responses API and starts the lab server, runs
// "codex exec --json", and reads what the run left behind: the JSON event
// stream on stdout and the session rollout under $CODEX_HOME/sessions.
//
// The parsers read formats Codex does not document; they report what they
// cannot read as "file:line: message" and go on.
package codex
