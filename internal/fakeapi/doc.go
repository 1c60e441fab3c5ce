// Package fakeapi serves fake model APIs on the loopback interface for MCP
// clients under test. A fake records every request it receives, in order,
// with credentials removed, and answers as a reader rather than a model:
// its reply is computed from the context it was given (see Read), so the
// answer is what a perfect reader of that request would say.
//
// Each API shape (today the Anthropic Messages API) is one file that turns a
// request body into Segments named in a vocabulary shared by every shape
// (system, system-role message, user turn, tool definition, ...). The
// recorder, the reader, the scripted turns and the token estimate are shared
// by all shapes, so the OpenAI and Gemini fakes are siblings of the Anthropic
// one.
package fakeapi
