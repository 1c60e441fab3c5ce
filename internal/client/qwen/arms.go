package qwen

import "github.com/instrlab/instrlab/internal/client"

// arms are the arms of the versions whose bundled code was read
// (docs/clients.md, "Arms of the other clients"). Settings are keys of
// settings.json, mcpServers.*.KEY in every server's entry. Qwen Code's
// output names none of them, so a run's arm is what instrlab set.
var arms = map[string][]client.Arm{
	"0.24.4": {
		{Name: "default", Default: true,
			Says: "MCP tools deferred (listed in a reminder, reached through tool_search/tool_call); tools.toolSearch.threshold 0 preloads none"},
		{Name: "code-mode-only", Settings: map[string]any{"tools.codeModeOnly": true},
			Says: "settings tools.codeModeOnly: tools reached only through code mode"},
		{Name: "tool-search-50", Settings: map[string]any{"tools.toolSearch.threshold": 50},
			Says: "settings tools.toolSearch.threshold (percent of the context window): deferred tools preloaded as definitions within that budget"},
		{Name: "timeout-1s", Settings: map[string]any{"mcpServers.*.timeout": 1000},
			Says: "per-server key timeout (milliseconds), as in Gemini CLI"},
		{Name: "approval-default", Approval: client.ApprovalDefault,
			Says: "the server not trusted (trust false), no --approval-mode: approval mode default"},
		{Name: "approval-plan", Approval: client.ApprovalPlan,
			Says: "the server not trusted, --approval-mode plan (choices plan, default, auto-edit, yolo)"},
		// Model ids its bundled code tells apart (OPENAI_MODEL), besides
		// fake-model, which matches none (docs/clients.md).
		{Name: "model-qwen3-coder-plus", Model: "qwen3-coder-plus",
			Says: "its own family (defaultModalities /^qwen3-coder-/: text only); coder-style tool call examples in its prompt"},
		{Name: "model-gemini-2-5-pro", Model: "gemini-2.5-pro",
			Says: "defaultModalities /^gemini-/: every modality, so a result's image reaches the model (in a user message after the tool result)"},
		{Name: "model-deepseek-v4-pro", Model: "deepseek-v4-pro",
			Says: "an id with \"deepseek\": its DeepSeek provider, which joins a tool result's parts into one string"},
	},
}

// Arms implements client.Armed.
func (q *Qwen) Arms() []client.Arm { return arms[q.Version] }
