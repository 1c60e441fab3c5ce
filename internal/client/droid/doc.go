// Package droid drives Factory's Droid CLI (droid, npm @factory/cli) as an
// MCP client under test: it installs a pinned version of the platform
// package that holds the native executable, writes a per-run
// ~/.factory/settings.json naming the fake as a custom model (an OpenAI
// Chat Completions provider, no Factory account) and ~/.factory/mcp.json
// with the lab, runs "droid exec" headless and reads its stream-json
// events.
//
// The parser reports what it cannot read as "file:line: message" and goes
// on.
package droid
