// Package live gives a go-sdk MCP server instructions that are resolved on
// every connect instead of fixed when the server is built. A [Resolver] runs
// when a client connects, in either protocol era: on initialize (2025-11-25
// and earlier) and on server/discover (2026-07-28). Its text goes into that
// one reply, so clients of both eras see the same text and concurrent
// connects never share a value.
//
// Resolution fails open: a resolver error, a panic or a resolver slower than
// its deadline never breaks the handshake. The server then sends the
// configured fallback (or no instructions) and reports the failure to a hook
// the caller supplies. Nothing is resolved when the server is built or this
// package is imported. Options.Budget reports instructions longer than
// clients keep, and with Options.Trim cuts them where a section ends; see
// docs/live.md for the design and its invariants.
package live
