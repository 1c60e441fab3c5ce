package copilot

import "github.com/instrlab/instrlab/internal/client"

// AllowAllTools is the flag that lets every tool run without a
// confirmation, which copilot --help calls required for non-interactive
// mode; every run passes it but in an approval arm.
const AllowAllTools = "--allow-all-tools"

// FeatureFlagsEnv names the feature flags of its native runtime to turn
// on (read in its strings).
const FeatureFlagsEnv = "COPILOT_CLI_ENABLED_FEATURE_FLAGS"

// arms are the arms of the versions whose help was read: its default,
// with every tool allowed, and its own without the flag.
var arms = map[string][]client.Arm{
	"1.0.102": {
		{Name: "default", Default: true, Says: AllowAllTools + ": every tool runs without a confirmation"},
		{Name: "approval-default", Approval: client.ApprovalDefault,
			Says: "no " + AllowAllTools + " (its help: \"required for non-interactive mode\")"},
		// Model ids of the list in its native runtime, COPILOT_MODEL
		// (its help: the id "used internally for agent configuration
		// and token limits" and the wire model), besides fake-model.
		// Read in the runtime's strings and code (docs/clients.md).
		{Name: "model-gemini-3-8-flash", Model: "gemini-3.8-flash",
			Says: "an id starting gemini-: schemas through its Gemini sanitizer (type arrays, enum on an array, anyOf), tool_choice \"validated\", a result with no text or image replaced by a placeholder"},
		{Name: "model-gpt-5-5", Model: "gpt-5.5",
			Says: "the gpt5 family: apply-patch editing and rg among its own tools, its own system message profile"},
		{Name: "model-claude-sonnet-5-5", Model: "claude-sonnet-5.5",
			Says: "the claude family: its own system message profile"},
		// A feature flag of its native runtime, off by default: "Enable
		// MCP Tasks support (spec 2025-11-25): tools the server marks
		// taskSupport: \"required\" run as background subagents via
		// callToolAsTask" (its strings); flags are named in
		// COPILOT_CLI_ENABLED_FEATURE_FLAGS.
		{Name: "mcp-tasks", Env: map[string]string{FeatureFlagsEnv: "MCP_TASKS"},
			Says: "its MCP Tasks feature flag on: a tool the server marks taskSupport \"required\" is to run as a background subagent, called as a task"},
	},
}

// Arms implements client.Armed.
func (c *Copilot) Arms() []client.Arm { return arms[c.Version] }
