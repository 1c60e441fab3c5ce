package opencode

import (
	"github.com/instrlab/instrlab/internal/client"
)

// arms are the arms of the versions whose bundled code was read
// (docs/clients.md, "Arms of the other clients"). Settings are keys of
// opencode.json, one under mcp.*. set in every server's entry.
// opencode's log names none of these switches, so a run's arm is what
// instrlab set.
var arms = map[string][]client.Arm{
	"1.18.33": {
		{Name: "default", Default: true,
			Says: "every server's instructions in <mcp_instructions> in the system message; servers given 30 s to connect (mcp.NAME.timeout, default 30000)"},
		{Name: "code-mode", Env: map[string]string{"OPENCODE_EXPERIMENTAL_CODE_MODE": "1"},
			Says: "MCP tools are not registered one by one but reached through a code-mode tool"},
		{Name: "experimental", Env: map[string]string{"OPENCODE_EXPERIMENTAL": "1"},
			Says: "the default of every OPENCODE_EXPERIMENTAL_* switch not set on its own, code mode among them"},
		{Name: "tools-denied", Lab: true, Settings: map[string]any{"permission": map[string]any{"lab_*": "deny"}},
			Says: "a server's instructions are kept only when it has no tools or the agent's permissions leave one of them enabled; this denies every tool of the server named lab"},
		{Name: "timeout-1s", Settings: map[string]any{"mcp.*.timeout": 1000},
			Says: "per-server key timeout: how long opencode waits for a server to connect and list its tools"},
		{Name: "approval-plan", Approval: client.ApprovalPlan,
			Says: "opencode run --agent plan: its read-only agent (its default arm sets no permission: the built-in defaults)"},
	},
}

// Arms implements client.Armed.
func (c *Opencode) Arms() []client.Arm { return arms[c.Version] }
