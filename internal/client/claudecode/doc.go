// Package claudecode drives Anthropic's Claude Code CLI as an MCP client
// under test: it provisions a pinned version from npm, starts one isolated
// headless run (claude -p with stream-json output, a strict MCP config and a
// debug file), and reads what the run left behind: the stream-json events,
// the debug log and the session transcript.
//
// The parsers read formats that Claude Code does not document (transcript
// attachments, debug lines); they warn and continue on what they do not
// recognise, so a format change shows up as a warning, not a crash.
package claudecode
