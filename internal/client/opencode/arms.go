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
	"1.18.33": append([]client.Arm{
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
	}, ModelArms...),
}

// ModelArms are the model arms of opencode and its forks: the model id of the
// run's one provider (at the fake, its API id), named for the branches
// of opencode's bundled code that read the id (ProviderTransform.schema,
// SystemPrompt.provider and the message transforms), besides the
// default, fake-model, which matches none of them.
var ModelArms = []client.Arm{
	{Name: "model-gemini-2-5-pro", Model: "gemini-2.5-pro",
		Says: "an id with \"gemini\": tool schemas rewritten for Gemini (enum values as strings, type arrays as anyOf with nullable, required kept to listed properties, array items given a type); the gemini system prompt"},
	{Name: "model-kimi-k2", Model: "kimi-k2",
		Says: "an id with \"kimi\": a schema's items given as an array cut to its first; the kimi system prompt"},
	{Name: "model-claude-sonnet-4-5", Model: "claude-sonnet-4-5",
		Says: "an id with \"claude\": tool call ids cut to [a-zA-Z0-9_-], empty message parts dropped; the anthropic system prompt"},
}

// Arms implements client.Armed.
func (c *Opencode) Arms() []client.Arm { return arms[c.Version] }
