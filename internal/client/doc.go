// Package client is the interface between the runner and the MCP clients
// under test (Claude Code today; Codex, Gemini CLI, opencode and Qwen Code
// are meant to be siblings). Each client lives in its own folder: how to
// provision a pinned version, how to start one isolated headless run against
// a fake model API and the lab server, and how to read what the client left
// behind (its logs and transcripts) into an Observation.
//
// The runner knows nothing about any client: caps, placement and handshakes
// are read from evidence, never assumed here.
package client
