// Package lab is the instrumented MCP server: a small parts-inventory server
// whose instructions carry codewords and position markers, so that whatever
// reaches a model proves which text a client delivered and where it was cut.
//
// The protocol is the official MCP Go SDK's. The lab adds to it only by
// wrapping: a stdio transport of its own ([Lab.ServeStdio]) that logs every
// line before the SDK sees it and answers malformed input the way JSON-RPC
// prescribes (the SDK's own stdio transport closes the connection on the
// first malformed line, which is correct for a server but hides what the
// client sent); an HTTP wrapper ([Lab.Handler]) that logs both directions
// and checks Origin; and receiving middleware that sets the instructions per
// era and holds replies.
//
// The middleware also answers tools/list faster than the SDK alone, with the
// same bytes: the SDK marshals each tool's JSON Schema by reflection on
// every tools/list (most of a pipelining client's CPU time), so the lab
// hands the SDK copies of its tools whose schemas were marshalled once, as
// json.RawMessage. TestToolsListFastPath compares the replies with the
// SDK's own in every era. The tools are added on a goroutine of their own
// beside the start of serving (the SDK infers and resolves their schemas
// by reflection: in a fresh process, most of the CPU time of New, which the
// initialize reply does not need); tools/list and tools/call wait for them.
//
// Args is the one definition of the lab's command line ("instrlab serve lab"
// and its flags, as a client's MCP config passes them), and Proxy writes the
// same message log for any other MCP server it is put in front of.
//
// Some behaviour is wrong on purpose, because real servers behave that way
// and clients must survive them, and each is opt-in:
//   - OnUnknown "crash" exits the process, and "hang" never answers, when a
//     method the server does not know (server/discover for a legacy server)
//     arrives before the handshake. This is done in the transport wrapper,
//     since the SDK answers unknown methods before middleware runs.
//   - InitDelay and DiscoverDelay hold those replies, in middleware;
//     ReadyAfter holds them until that long after the process started.
//   - Era "modern" refuses initialize with -32022 and the supported versions.
//   - Fail answers tools/list, initialize or server/discover with a
//     JSON-RPC error (-32603), in middleware: what a client does with a
//     server whose listing or handshake breaks.
//
// Two answers differ from the SDK's so that the lab stays a faithful test
// bench: a legacy lab answers server/discover with -32601 (the SDK would
// answer -32022, as a newer server lacking a version), and a dual lab
// answers an initialize that follows server/discover on the same connection
// (the SDK refuses it), so a client that sends both shows which text it
// keeps. prompts/*, resources/* and completion/complete get -32601, since
// the lab declares tools only, unless -surface adds prompts (or, for
// resources/*, the protocol group's resource).
//
// The surface (-surface, SurfaceConfig) adds what a server sends besides
// instructions and tool descriptions, each part with a codeword of its own
// (SurfaceCodeword): tools whose results carry content text,
// structuredContent, both, isError, an image, a resource_link, an
// embedded resource, _meta, annotated content or a long text; tools whose
// input schemas use one JSON Schema feature each; tools with long, dotted,
// hyphenated, upper-case or non-ASCII names; tools with
// _meta keys, annotations, a title and an icon; a prompt and resources;
// and results a client must survive (SurfaceBad: no content, content of the
// wrong type, structuredContent that does not fit its outputSchema, 10 MiB,
// a protocol error; SurfaceHang: no answer). The results the SDK's types
// cannot express are written raw by the middleware.
package lab
