// Package lab is the instrumented MCP server: a small parts-inventory server
// whose instructions carry codewords and position markers, so that whatever
// reaches a model proves which text a client delivered and where it was cut.
//
// The protocol is the official MCP Go SDK's. The lab adds to it only by
// wrapping: a stdio transport of its own ([Config.ServeStdio]) that logs every
// line before the SDK sees it and answers malformed input the way JSON-RPC
// prescribes (the SDK's own stdio transport closes the connection on the
// first malformed line, which is correct for a server but hides what the
// client sent); an HTTP wrapper ([Config.Handler]) that logs both directions
// and checks Origin; and receiving middleware that sets the instructions per
// era and holds replies.
//
// Some behaviour is wrong on purpose, because real servers behave that way
// and clients must survive them, and each is opt-in:
//   - OnUnknown "crash" exits the process, and "hang" never answers, when a
//     method the server does not know (server/discover for a legacy server)
//     arrives before the handshake. This is done in the transport wrapper,
//     since the SDK answers unknown methods before middleware runs.
//   - InitDelay and DiscoverDelay hold those replies, in middleware.
//   - Era "modern" refuses initialize with -32022 and the supported versions.
package lab
