// Package surface locates, in the model requests a client sent, what a
// server sent besides its instructions and tool descriptions: each part of
// a tool result (content text, structuredContent, images, links, embedded
// resources, _meta, an error) in the request that follows the call, and
// each tool's input schema, output schema and name in the definitions the
// client sent. It reads evidence only (the fake API's recorded requests and
// the server's message log, which keeps every tools/call and tools/list
// reply whole), so it serves the lab (-surface) and a user's own server
// behind the recording proxy alike, and links no client adapter.
package surface
