// Package continuecli drives the Continue CLI (cn, npm @continuedev/cli)
// as an MCP client under test: it installs a pinned version from npm (a
// Node.js bundle), writes a per-run config.yaml with the fake as an
// OpenAI provider and the lab as the only MCP server, runs "cn -p"
// headless, and reads its stdout (the answer), its stderr (a failed run's
// JSON error), the session it saves and its log.
//
// The parsers report what they cannot read as "file:line: message" (or
// "file: message" for a whole-file JSON document) and go on.
package continuecli
