// Package client is the interface between the runner and the MCP clients
// under test. Each client is an adapter in a folder of its own below this
// one (claudecode, codex, gemini, ...; the registry, clients, lists them):
// its Info (names, fake API, pinned version), how to provision a pinned
// version, how to start one isolated headless run against a fake model
// API and the lab server (Run), and how to read what the client left
// behind (its logs and transcripts, Evidence) into an Observation.
//
// The runner knows nothing about any client: caps, placement and handshakes
// are read from evidence, never assumed here.
package client
