package cline

import "github.com/instrlab/instrlab/internal/client"

// arms are the arms of the versions whose bundled code was read
// (docs/clients.md, "Arms of the other clients"). Settings are per-server
// keys of cline_mcp_settings.json (mcpServers.*.KEY). Cline reports
// nothing about its MCP servers, so a run's arm is what instrlab set.
var arms = map[string][]client.Arm{
	"3.0.65": {
		{Name: "default", Default: true,
			Says: "a stdio server gets 3 s for initialize (then one retry with framed messages); server instructions are read by no code"},
		{Name: "timeout-20s", Settings: map[string]any{"mcpServers.*.timeout": 20},
			Says: "per-server key timeout (seconds, 1-3600): the time of every request to the server, initialize among them"},
		{Name: "approval-default", Approval: client.ApprovalDefault,
			Says: "--auto-approve false: no tool approved beforehand (with no flag, act mode approves every tool, as the matrix runs it)"},
		{Name: "approval-plan", Approval: client.ApprovalPlan,
			Says: "--plan: plan mode, tool auto-approval at its default"},
	},
}

// Arms implements client.Armed.
func (c *Cline) Arms() []client.Arm { return arms[c.Version] }
