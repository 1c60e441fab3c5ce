package continuecli

import "github.com/instrlab/instrlab/internal/client"

// arms are the arms of the versions whose help was read: --auto (every
// tool allowed, what every run passes), neither mode flag, and --readonly.
var arms = map[string][]client.Arm{
	"1.5.47": {
		{Name: "default", Default: true, Says: "--auto: \"Start in auto mode (all tools allowed)\""},
		{Name: "approval-default", Approval: client.ApprovalDefault,
			Says: "no --auto: its default tool policies (cn -p)"},
		{Name: "approval-plan", Approval: client.ApprovalPlan,
			Says: "--readonly: \"Start in plan mode (read-only tools)\""},
		// Model ids its bundled code tells apart, besides fake-model
		// (docs/clients.md, "Models and approval modes"): its
		// isModelCapable reads the model and the config's name.
		{Name: "model-claude-sonnet-4-6", Model: "claude-sonnet-4-6",
			Says: "its own default model (ConfigService); a capable id (isModelCapable): MultiEdit in place of Edit; token counts times 1.23"},
		{Name: "model-gpt-4o", Model: "gpt-4o",
			Says: "in its cost table; a capable id; the gpt-5 and o-series branches need api.openai.com"},
		{Name: "model-deepseek-reasoner", Model: "deepseek-reasoner",
			Says: "named in its OpenAI adapter (max_tokens as max_completion_tokens); not a capable id: Edit, as fake-model"},
	},
}

// Arms implements client.Armed.
func (c *Continue) Arms() []client.Arm { return arms[c.Version] }
