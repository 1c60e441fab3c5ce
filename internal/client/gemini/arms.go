package gemini

import "github.com/instrlab/instrlab/internal/client"

// arms are the arms of the versions whose bundled code was read
// (docs/clients.md, "Arms of the other clients"). Settings are per-server
// keys of settings.json (mcpServers.*.KEY). Gemini CLI's output names
// neither, so a run's arm is what instrlab set.
var arms = map[string][]client.Arm{
	"0.61.0": {
		{Name: "default", Default: true,
			Says: "a server's instructions appended to the project memory, which goes into the first user turn; each request to a server may take 10 minutes (MCP_DEFAULT_TIMEOUT_MSEC)"},
		{Name: "timeout-1s", Settings: map[string]any{"mcpServers.*.timeout": 1000},
			Says: "per-server key timeout (milliseconds): the time of the connection and of every request to the server"},
		{Name: "exclude-tools", Lab: true, Settings: map[string]any{"mcpServers.*.excludeTools": []string{"lab_ping", "list_bins", "lookup_part"}},
			Says: "per-server key excludeTools naming every tool of the lab server: its tools are not sent; its instructions stay (getMcpInstructions reads every connected client)"},
		{Name: "approval-default", Approval: client.ApprovalDefault,
			Says: "the server not trusted (trust false), no --approval-mode: approval mode default, a call of its tools needs a confirmation"},
		{Name: "approval-plan", Approval: client.ApprovalPlan,
			Says: "the server not trusted, --approval-mode plan (choices default, auto_edit, yolo, plan)"},
		// Models of its models.ts besides its default, gemini-3.8-flash
		// (LATEST_GEMINI_FLASH_MODEL), each of a family its code tells
		// apart (isGemini3Model, isGemini2Model, isCustomModel).
		{Name: "model-gemini-2-5-pro", Model: "gemini-2.5-pro",
			Says: "DEFAULT_GEMINI_MODEL, of the gemini-2 family (isGemini2Model)"},
		{Name: "model-gemini-3-1-pro", Model: "gemini-3.1-pro-preview",
			Says: "PREVIEW_GEMINI_3_1_MODEL, of the gemini-3 family, a pro model"},
		{Name: "model-gemma-4", Model: "gemma-4-31b-it",
			Says: "GEMMA_4_31B_IT_MODEL: not a gemini- model, so a custom one to its code (isCustomModel)"},
	},
}

// Arms implements client.Armed.
func (c *Gemini) Arms() []client.Arm { return arms[c.Version] }
