// Package kilo drives the Kilo Code CLI, a fork of opencode, as an MCP
// client under test: it installs a pinned version from npm (a native
// binary in a platform package), writes opencode's config as kilo.json in
// the working folder, runs "kilo run" headless and reads its output with
// the opencode parsers.
package kilo
