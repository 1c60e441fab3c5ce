// Package streamjson reads the stream-json output that Claude Code
// (claude -p --output-format stream-json) and Qwen Code print: one JSON
// event a line, an init event listing the MCP servers with their status
// and a result event. Each client that prints it reads it here.
package streamjson
