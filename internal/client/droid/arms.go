package droid

import "github.com/instrlab/instrlab/internal/client"

// arms are the arms of the versions whose shipped code was read
// (docs/clients.md, "Droid"): per-server keys of mcp.json (its schema:
// disabled, enabledTools, disabledTools, timeout, connectTimeout) and the
// variable that bounds the listing of a server's tools. Droid's output
// names none of them, so a run's arm is what instrlab set.
var arms = map[string][]client.Arm{
	"0.225.2": {
		{Name: "default", Default: true,
			Says: "a server's instructions are stored by the SDK client and read nowhere; MCP tools are deferred, named in a user-turn reminder and loaded through ToolSearch"},
		{Name: "tools-disabled", Lab: true, Settings: map[string]any{"mcpServers.*.disabledTools": []string{"lab_ping", "list_bins", "lookup_part"}},
			Says: "per-server key disabledTools: the listed tools of the server are not offered to the model"},
		{Name: "connect-timeout-1s", Settings: map[string]any{"mcpServers.*.connectTimeout": 1000},
			Says: "per-server key connectTimeout (milliseconds): how long Droid waits for a stdio server to connect"},
		{Name: "list-tools-timeout-1s", Env: map[string]string{"FACTORY_MCP_LIST_TOOLS_TIMEOUT_MS": "1000"},
			Says: "how long Droid waits for a server's tools/list (default 15,000 ms)"},
		{Name: "approval-default", Approval: client.ApprovalDefault,
			Says: "droid exec without --auto: its default autonomy, read-only"},
		// Custom model ids, which Droid matches to a model of its own
		// (an id contained in the string, then its patterns) for that
		// model's settings, besides fake-model (docs/clients.md).
		{Name: "model-gemini-3-1-pro", Model: "gemini-3.1-pro-preview",
			Says: "matched to its Gemini 3.1 Pro: the gemini prompt additions, provider google (thought signatures)"},
		{Name: "model-claude-sonnet-4-5", Model: "claude-sonnet-4-5-20250929",
			Says: "matched to its Sonnet 4.5: the claude prompt additions; a result's images forwarded in a user message"},
		{Name: "model-deepseek-v4-pro", Model: "deepseek-v4-pro",
			Says: "matched to its DeepSeek V4 Pro, without images: a result's image replaced by a placeholder"},
	},
}

// Arms implements client.Armed.
func (d *Droid) Arms() []client.Arm { return arms[d.Version] }
