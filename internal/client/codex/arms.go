package codex

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/instrlab/instrlab/internal/client"
)

// arms are the arms of the versions whose switches were read (`codex
// features list` and the native binary's strings; docs/clients.md, "Arms
// of the other clients"). Codex's switches are config keys: an arm's
// Settings are passed as -c KEY=VALUE overrides, which the run's command
// line shows; a key with a "*" segment is set for every server of the
// run. Codex logs none of them, so a run's arm is what instrlab set.
var arms = map[string][]client.Arm{
	"0.169.0": featureArms,
	// 0.171.0: the same features at the same stages and defaults (`codex
	// features list`; it adds features under development and turns
	// incremental_tools_legacy on), and the same per-server keys.
	"0.171.0": slices.Concat(featureArms, []client.Arm{{Name: "approval-default", Approval: client.ApprovalDefault,
		Says: "no default_tools_approval_mode for the server, under the run's approval_policy never: a call of a tool that asks is refused"}},
		models171),
}

// models171 are 0.171.0's model arms: models of the catalogue its binary
// ships (slug, tool_mode, visibility and priority read there) besides its
// default, gpt-6.2-sol (priority 1, tool_mode code_mode_only).
var models171 = []client.Arm{
	{Name: "model-gpt-5-5", Model: "gpt-5.5",
		Says: "GPT-5.5, listed, priority 13: the one model of the catalogue without a tool_mode (every other is code_mode_only)"},
	{Name: "model-gpt-6-luna", Model: "gpt-6-luna",
		Says: "GPT-6-Luna, listed, priority 7, tool_mode code_mode_only"},
	{Name: "model-gpt-5-6-sol", Model: "gpt-5.6-sol",
		Says: "GPT-5.6-Sol, listed, priority 8, tool_mode code_mode_only: the previous family"},
}

// featureArms are the arms of 0.169.0 and 0.171.0.
var featureArms = []client.Arm{
	{Name: "default", Default: true,
		Says: "the built-in feature defaults `codex features list` prints with an empty config"},
	{Name: "mcp-2026", Settings: map[string]any{"features.mcp_2026_07_28": true},
		Says: "feature mcp_2026_07_28 (under development, default false): HTTP servers probed with server/discover (2026-07-28), no initialize; stdio servers unchanged"},
	{Name: "lazy-stdio", Settings: map[string]any{"features.mcp_lazy_stdio_startup": true},
		Says: "feature mcp_lazy_stdio_startup (under development, default false): stdio servers started lazily"},
	{Name: "no-deferred-world-state", Settings: map[string]any{"features.deferred_tool_world_state": false},
		Says: "feature deferred_tool_world_state (stable, default true) off: where the deferred MCP tool namespaces are listed"},
	{Name: "ready-catalog", Settings: map[string]any{"mcp_servers.*.startup_readiness": "catalog"},
		Says: "per-server key startup_readiness (connection or catalog): what a server must reach before it counts as started"},
	{Name: "ready-connection", Settings: map[string]any{"mcp_servers.*.startup_readiness": "connection"},
		Says: "per-server key startup_readiness (connection or catalog): what a server must reach before it counts as started"},
	{Name: "startup-20s", Settings: map[string]any{"mcp_servers.*.startup_timeout_sec": 20},
		Says: "per-server key startup_timeout_sec: how long a server may take to start"},
	{Name: "no-incremental-tools", Settings: map[string]any{"features.incremental_tools": false},
		Says: "feature incremental_tools (stable, default true) off"},
}

// Arms implements client.Armed.
func (c *Codex) Arms() []client.Arm { return arms[c.Version] }

// overrides renders the arm's Settings as -c KEY=VALUE arguments, in the
// order of their keys, a key with a "*" segment once per server in the
// config's order (client.SettingPaths); a value is written as JSON, which
// TOML reads the same for booleans, numbers and strings.
func overrides(a client.Arm, servers []client.Server) ([]string, error) {
	var args []string
	for _, k := range slices.Sorted(maps.Keys(a.Settings)) {
		v, err := json.Marshal(a.Settings[k])
		if err != nil {
			return nil, fmt.Errorf("arm %s: setting %s: %w", a.Name, k, err)
		}
		for _, path := range client.SettingPaths(k, servers) {
			for i, seg := range path {
				path[i] = tomlKey(seg)
			}
			args = append(args, "-c", strings.Join(path, ".")+"="+string(v))
		}
	}
	return args, nil
}
