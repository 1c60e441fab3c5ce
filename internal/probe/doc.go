// Package probe measures what an MCP server sends in each protocol era: a
// raw modern probe (server/discover with the 2026-07-28 _meta) and a legacy
// handshake (initialize 2025-11-25, notifications/initialized, tools/list),
// each on a fresh connection with its own timeout, and what the server does
// with the probe when it is legacy (answers -32601, another error, exits, or
// stays silent).
//
// Over stdio the conversation is raw newline-delimited JSON-RPC on a process
// of our own, because check must see exactly what the server does: the time
// from spawn to the first reply, every line that is not JSON-RPC, an exit and
// its status, silence. The SDK's CommandTransport would close the connection
// on the first malformed line and hide the process. Over Streamable HTTP the
// official Go SDK's client does the protocol (sessions, headers, SSE), and
// probe instruments it by wrapping: a transport that records every message
// (and refuses the SDK's initialize fallback during the modern probe) and an
// http.RoundTripper that records what came back when it was not MCP (a
// redirect, an HTML page, a refused connection).
//
// Replies are decoded by parsers written for untrusted input (and fuzzed);
// nothing a server sends can panic the probe or make it wait past its
// timeout.
package probe
