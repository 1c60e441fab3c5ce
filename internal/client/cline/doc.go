// Package cline drives the Cline CLI as an MCP client under test: it
// installs a pinned version from npm (a compiled Bun executable in a
// platform package), writes per-run provider settings (an
// OpenAI-compatible provider at the fake) and MCP settings with the lab
// server under ~/.cline/data/settings, runs "cline --json PROMPT" headless,
// and reads its JSON messages.
//
// The parsers report what they cannot read as "file:line: message" and go
// on.
package cline
