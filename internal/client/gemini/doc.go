// Package gemini drives Google's Gemini CLI as an MCP client under test: it
// installs a pinned version from npm, writes a per-run
// ~/.gemini/settings.json with the lab server (trusted) and API-key auth,
// runs "gemini -p" headless with stream-json output against the fake Gemini
// API (GOOGLE_GEMINI_BASE_URL), and reads what the run left behind: the
// stream-json events and the debug log on stderr.
//
// The parsers report what they cannot read as "file:line: message" and go
// on.
package gemini
