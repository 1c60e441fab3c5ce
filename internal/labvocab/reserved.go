package labvocab

// ReservedNames are the tool names the pinned clients give tools of their
// own, as their first model requests define them (server-filesystem run
// through each, 2026-12-05), and the names of their own tools a client
// leaves out in a headless run (Gemini CLI's write_file, replace and
// run_shell_command, whose names it then hides in a server too). A server
// tool of one of these names may be hidden, renamed, or taken for the
// client's own; lab.SurfaceReserved serves one tool of each name to see
// which.
var ReservedNames = []string{
	// Claude Code, Droid, Continue (upper case)
	"Agent", "Bash", "Edit", "Read", "Write", "Glob", "Grep", "LS", "Execute", "Create", "List", "Fetch",
	"Task", "TodoWrite", "ToolSearch", "WebFetch", "WebSearch", "Skill", "Skills",
	// Codex CLI
	"exec_command", "write_stdin", "list_mcp_resources", "read_mcp_resource", "view_image", "update_plan",
	// Gemini CLI and Qwen Code
	"read_file", "write_file", "replace", "run_shell_command", "list_directory", "glob", "grep_search",
	"google_web_search", "web_fetch", "save_memory", "read_many_files", "write_todos", "tool_search", "tool_call",
	// Cline CLI, GitHub Copilot CLI, Kilo Code CLI, opencode
	"read_files", "run_commands", "editor", "execute_command", "bash", "view", "create", "edit", "grep",
	"task", "read", "write", "webfetch", "todowrite", "skill",
}
