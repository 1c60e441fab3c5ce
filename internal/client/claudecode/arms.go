package claudecode

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"

	"github.com/instrlab/instrlab/internal/client"
)

// configFile is Claude Code's own config file under HOME, where it caches
// the feature flag values it fetched (cachedGrowthBookFeatures).
const configFile = ".claude.json"

// diskCacheEnv makes Claude Code read its cached flag values while
// telemetry is off (read from 2.1.285's code: without it, a run with
// non-essential traffic off never reads the cache).
const diskCacheEnv = "CLAUDE_CODE_GB_DISK_CACHE_WHEN_TELEMETRY_OFF"

// arms are the arms of the versions whose shipped code was read (see
// docs/clients.md, "Arms"); other versions have only their default.
var arms = map[string][]client.Arm{
	"2.1.285": {
		{Name: "v2", Default: true,
			Says: "MCP runtime v2 from the built-in default of flag tengu_brindle_causeway; stdio servers not probed (flag tengu_mcp_protocol_negotiation_stdio, default false)"},
		{Name: "v1", Env: map[string]string{"MCP_SDK_GENERATION": "v1"},
			Says: "MCP runtime v1, source env"},
		{Name: "probe-env", Env: map[string]string{"MCP_PROTOCOL_NEGOTIATION": "auto"},
			Says: "probes stdio servers with server/discover (the documented switch)"},
		{Name: "probe-flag", Env: map[string]string{diskCacheEnv: "1"},
			Cached: map[string]any{"tengu_mcp_protocol_negotiation_stdio": true},
			Says:   "probes stdio servers with server/discover, as a fetched flag payload would make it"},
		{Name: "seed", Env: map[string]string{diskCacheEnv: "1", "CLAUDE_CODE_MODEL_CAPABILITIES": "-mid_conv_system"},
			Cached: map[string]any{"tengu_brindle_causeway": true, "tengu_mcp_protocol_negotiation_stdio": true},
			Says:   "probe-flag and reminder together, with the runtime flag cached as fetched: what seed 000 saw online (v2 from growthbook, a server/discover probe, a user-turn <system-reminder>)"},
		{Name: "v1-flag", Env: map[string]string{diskCacheEnv: "1"},
			Cached: map[string]any{"tengu_brindle_causeway": false},
			Says:   "MCP runtime v1 from a cached flag value, source growthbook"},
		{Name: "reminder", Env: map[string]string{"CLAUDE_CODE_MODEL_CAPABILITIES": "-mid_conv_system"},
			Says: "every model without the mid_conv_system capability: added context goes into the first user turn as a <system-reminder> instead of role \"system\" messages"},
	},
	"2.1.328": v2Only,
	// 2.1.332: the same three switches, read in its executable
	// (MCP_SDK_GENERATION v1 as env_v1_compat, MCP_PROTOCOL_NEGOTIATION legacy
	// or auto, CLAUDE_CODE_MODEL_CAPABILITIES).
	"2.1.332": append(slices.Clone(v2Only), models332...),
}

// models332 are 2.1.332's model and approval arms: the models of its model
// list's main section besides its default (Opus 5.5), one its code names
// as without tool search, and its default and plan permission modes.
var models332 = []client.Arm{
	{Name: "model-sonnet", Model: "claude-sonnet-5-5", Says: "Sonnet 5.5, in its model list's main section"},
	{Name: "model-haiku", Model: "claude-haiku-5-5", Says: "Haiku 5.5, in its model list's main section"},
	{Name: "model-fable", Model: "claude-fable-5-2", Says: "Fable 5.2, in its model list's main section"},
	{Name: "model-claude-3-7", Model: "claude-3-7-sonnet-20250219",
		Says: "a model of the claude-3 family, which its code lists as without tool search (the default of flag tengu_tool_search_unsupported_models)"},
	{Name: "approval-default", Approval: client.ApprovalDefault,
		Says: "-p with no tool allowed beforehand (no --allowed-tools): it denies a call it would ask about"},
	{Name: "approval-plan", Approval: client.ApprovalPlan,
		Says: "--permission-mode plan: read-only tools only"},
}

// v2Only are the arms of the versions whose MCP runtime is always v2.
var v2Only = []client.Arm{
	{Name: "v2", Default: true,
		Says: "MCP runtime v2 (no flag any more); stdio servers probed with server/discover"},
	{Name: "v1-compat", Env: map[string]string{"MCP_SDK_GENERATION": "v1"},
		Says: "the v2 client with the older handshake, source env_v1_compat"},
	{Name: "legacy", Env: map[string]string{"MCP_PROTOCOL_NEGOTIATION": "legacy"},
		Says: "no server/discover probe"},
	{Name: "reminder", Env: map[string]string{"CLAUDE_CODE_MODEL_CAPABILITIES": "-mid_conv_system"},
		Says: "every model without the mid_conv_system capability: added context goes into the first user turn as a <system-reminder> instead of role \"system\" messages"},
}

// Arms implements client.Armed.
func (c *Claude) Arms() []client.Arm { return arms[c.Version] }

// writeCached writes the arm's cached flag values into the run's
// ~/.claude.json, as Claude Code caches fetched ones.
func writeCached(r *client.Run) error {
	if len(r.Arm.Cached) == 0 {
		return nil
	}
	b, err := json.MarshalIndent(map[string]any{"cachedGrowthBookFeatures": r.Arm.Cached}, "", "  ")
	if err != nil {
		return fmt.Errorf("encoding cached flags: %w", err)
	}
	return r.WriteConfig(r.Files().Home(configFile), configFile, append(b, '\n'))
}

// settings is the --settings value: hooks off, and the arm's keys.
func settings(a client.Arm) (string, error) {
	if len(a.Settings) == 0 {
		return `{"disableAllHooks": true}`, nil
	}
	s := map[string]any{"disableAllHooks": true}
	maps.Copy(s, a.Settings)
	b, err := json.Marshal(s)
	if err != nil {
		return "", fmt.Errorf("encoding settings: %w", err)
	}
	return string(b), nil
}
