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
		// Model ids its bundled code tells apart, besides fake-model
		// (docs/clients.md, "Models and approval modes"): at an
		// openai-compatible provider they are read from the id alone.
		{Name: "model-gpt-4o", Model: "gpt-4o",
			Says: "the openai-compatible provider's default id, the one with model info (tools, 128,000 tokens); an id with \"gpt\": in act mode apply_patch replaces the editor tool"},
		{Name: "model-claude-sonnet-4-5", Model: "claude-sonnet-4-5",
			Says: "an id with \"claude\": the anthropic-compatible reasoning options"},
		{Name: "model-qwen3-coder-plus", Model: "qwen3-coder-plus",
			Says: "a qwen id, in its model catalogue: the qwen detector, which shapes reasoning options only"},
	},
}

// Arms implements client.Armed.
func (c *Cline) Arms() []client.Arm { return arms[c.Version] }
