// Package cline drives the Cline CLI as an MCP client under test: it
// installs a pinned version from npm (a compiled Bun executable in a
// platform package), writes per-run provider settings (an
// OpenAI-compatible provider at the fake) and MCP settings with the lab
// server under ~/.cline/data/settings, runs "cline --json PROMPT" headless,
// and reads its JSON messages.
//
// Older lines of the npm package differ (lines.go): 0.8.2 is another
// project's package; 2.x is a Node CLI and 1.x a Go CLI driving the VS Code
// extension's core, configured through the core's state files (CoreState).
// Their runs record what they send but cannot finish against the fakes,
// which the sweep is told (Supports).
//
// The parsers report what they cannot read as "file:line: message" and go
// on.
package cline
