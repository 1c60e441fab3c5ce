// Package qwen drives Qwen Code as an MCP client under test: it installs a
// pinned version from npm, writes a per-run ~/.qwen/settings.json with the
// lab server (trusted) and OpenAI auth, runs "qwen PROMPT" headless with
// stream-json output and debug logging against the fake OpenAI Chat
// Completions API (OPENAI_BASE_URL), and reads the events and the log.
//
// The parsers report what they cannot read as "file:line: message" and go
// on.
package qwen
