package kilo

import (
	"slices"

	"github.com/instrlab/instrlab/internal/client"
	"github.com/instrlab/instrlab/internal/client/opencode"
)

// arms are the arms of the versions whose bundled code was read: Kilo keeps
// opencode's code for server text (docs/clients.md, "Arms of the other
// clients"), so its arms are opencode's, with its own variable names.
// Settings are keys of kilo.json (opencode.Config writes them). Kilo's log
// names none of these switches, so a run's arm is what instrlab set.
// 7.7.9's executable has the same switches (KILO_* names read in its
// strings: 7.7.7's and KILO_EXPERIMENTAL_CONTEXT_TOOLS, off by default and
// not about servers), and the same <mcp_instructions> code.
//
// 7.7.9's model arms are opencode's (opencode.ModelArms): its executable
// keeps the same branches on the model id, the schema rewrites word for
// word (read in its strings).
var arms = map[string][]client.Arm{"7.7.7": arms777, "7.7.9": slices.Concat(arms777, []client.Arm{{
	Name: "approval-plan", Approval: client.ApprovalPlan,
	Says: "kilo run --agent plan, as opencode's run (opencode.RunCommand): the plan agent, where Kilo kept opencode's"}},
	opencode.ModelArms)}

var arms777 = []client.Arm{
	{Name: "default", Default: true,
		Says: "every server's instructions in <mcp_instructions> in the system message; servers given mcp.NAME.timeout to connect"},
	{Name: "code-mode", Env: map[string]string{"KILO_EXPERIMENTAL_CODE_MODE": "1"},
		Says: "MCP tools reached through a code-mode tool instead of one definition each (opencode's switch under Kilo's name)"},
	{Name: "tools-denied", Lab: true, Settings: map[string]any{"permission": map[string]any{"lab_*": "deny"}},
		Says: "a server's instructions are kept only when it has no tools or the agent's permissions leave one enabled; this denies every tool of the server named lab"},
	{Name: "timeout-1s", Settings: map[string]any{"mcp.*.timeout": 1000},
		Says: "per-server key timeout: how long Kilo waits for a server to connect and list its tools"},
}

// Arms implements client.Armed.
func (k *Kilo) Arms() []client.Arm { return arms[k.Version] }
