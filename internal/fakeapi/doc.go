// Package fakeapi serves fake model APIs on the loopback interface for MCP
// clients under test. A fake records every request it receives, in order,
// with credentials removed, and answers as a reader rather than a model:
// its reply is computed from the context it was given (see Read), so the
// answer is what a perfect reader of that request would say.
//
// Each API shape (Anthropic Messages, OpenAI Chat Completions and
// Responses, Gemini) is one file that turns a request body into Segments
// named in a vocabulary shared by every shape (system, system-role message,
// user turn, tool definition, tool result, with the call a result answers
// and the images a request carries), and writes a Reply in its wire form.
// The recorder, the reader, the scripted turns and the token estimate are
// shared by all shapes.
//
// A scripted turn (Turn) makes the fake answer with tool calls, several in
// one reply if asked, when the request offers the tools: each is called
// under the name the client offered it (Offered: the server's name, behind
// a prefix, or found by a codeword of its definition), and the request's
// record names the calls made and the tools not offered, so that evidence
// links a call to the request that answers it.
package fakeapi
