package cline

import (
	"cmp"
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/instrlab/instrlab/internal/client"
)

// ProvidersFile and MCPFile are the copies of the settings kept in the
// client dir.
const (
	ProvidersFile = "providers.json"
	MCPFile       = "cline_mcp_settings.json"
	GlobalFile    = "global-settings.json"
)

// Provider is the provider id the settings configure; DirectProvider and
// DirectModel are the direct arm's.
const (
	Provider       = "openai-compatible"
	DirectProvider = "anthropic"
	DirectModel    = "claude-sonnet-4-5"
)

// Vendor implements client.Direct: the provider anthropic with no baseUrl
// goes to https://api.anthropic.com (its SDK's default). Cline's hosted
// default, the provider cline, needs an account. The executable is a Bun
// build, which reads NODE_EXTRA_CA_CERTS.
func (c *Cline) Vendor() client.Vendor {
	return client.Vendor{
		Hosts:    []string{"api.anthropic.com"},
		TrustEnv: []string{"NODE_EXTRA_CA_CERTS"},
		Says:     "the provider anthropic (model " + DirectModel + ") with no baseUrl, instead of openai-compatible at the fake",
	}
}

// Providers renders ~/.cline/data/settings/providers.json for one run: the
// fake as an OpenAI-compatible provider, in the shape "cline auth" writes.
func Providers(r *client.Run, model string) ([]byte, error) {
	provider, settings := Provider, map[string]any{
		"provider": Provider,
		"apiKey":   r.APIKey,
		"model":    model,
		"baseUrl":  strings.TrimRight(r.APIURL, "/") + "/v1",
	}
	if r.Arm.Direct {
		// The built-in provider anthropic with no baseUrl (Vendor).
		if model == DefaultModel {
			model = DirectModel
		}
		provider, settings = DirectProvider, map[string]any{"provider": DirectProvider, "apiKey": r.APIKey, "model": model}
	}
	cfg := map[string]any{
		"version":          1,
		"lastUsedProvider": provider,
		"modes":            map[string]any{},
		"providers": map[string]any{provider: map[string]any{
			"settings": settings,
			// Without updatedAt the entry is ignored and the hosted
			// "cline" provider is used.
			"updatedAt":   "2026-12-01T00:00:00.000Z",
			"tokenSource": "manual",
		}},
	}
	return encode(cfg, ProvidersFile)
}

// MCPSettings renders cline_mcp_settings.json: the lab as the only MCP
// server, over stdio, with the arm's per-server settings (mcpServers.*.KEY)
// in each entry.
func MCPSettings(servers []client.Server, arm client.Arm) ([]byte, error) {
	// A URL entry is SSE unless its type says streamableHttp (the
	// settings schema of cline 3.0.65's bundle).
	return client.TypedServersConfig(servers, arm, "streamableHttp", map[string]any{"disabled": false}, "cline "+MCPFile)
}

func encode(v any, name string) ([]byte, error) { return client.EncodeConfig(v, "cline "+name) }

// approvalFlags are 3.x's flags for each approval mode
// (client.Arm.Approval), read in 3.0.65's bundle. With none, a headless
// run is in act mode with tool auto-approval on (its help: "Default to
// start in act mode with auto-approve enabled"): every tool approved, the
// lab's convention. Its default mode approves every tool, so the mode that
// approves none beforehand is its switch --auto-approve false; --plan is
// its plan mode, as a user starts it.
var approvalFlags = map[string][]string{
	client.ApprovalDefault: {"--auto-approve", "false"},
	client.ApprovalPlan:    {"--plan"},
}

// Command implements client.Client: the MCP settings beside the line's
// provider settings, and the line's headless command (coreCommand for
// 2.x).
func (c *Cline) Command(ctx context.Context, r *client.Run) (*exec.Cmd, error) {
	if c.bin == "" {
		return nil, fmt.Errorf("%s@%s is not provisioned", Name, c.Version)
	}
	model := cmp.Or(r.Model, DefaultModel)
	settings := filepath.Join(r.Home, ".cline", "data", "settings")
	mcp, err := MCPSettings(r.Servers, r.Arm)
	if err != nil {
		return nil, err
	}
	if err := r.WriteConfig(filepath.Join(settings, MCPFile), MCPFile, mcp); err != nil {
		return nil, err
	}
	if lineOf(c.Version) == nodeCLI {
		return c.coreCommand(ctx, r, model)
	}
	prov, err := Providers(r, model)
	if err != nil {
		return nil, err
	}
	if err := r.WriteConfig(filepath.Join(settings, ProvidersFile), ProvidersFile, prov); err != nil {
		return nil, err
	}
	// No -m or -P: either makes the client rewrite providers.json
	// without the base URL.
	// Telemetry off: with it on, the process waits about half a minute
	// after its answer, for hosts it cannot reach offline.
	if err := r.WriteConfig(filepath.Join(settings, GlobalFile), GlobalFile, []byte(`{"telemetryOptOut": true, "autoUpdateEnabled": false}`+"\n")); err != nil {
		return nil, err
	}
	args := append([]string{"--json", "--verbose"}, approvalFlags[r.Arm.Approval]...)
	args = append(args, r.Flags...)
	args = append(args, r.Prompt)
	cmd := exec.CommandContext(ctx, c.bin, args...)
	cmd.Dir = r.Work
	// The local backend runs the session in this process; the default
	// ("auto") starts a hub daemon that outlives the run. E2E_TEST=true
	// only skips the remote feature-flag client (its one use in this
	// version), whose shutdown holds the process about 45 s offline; the
	// flags keep their built-in defaults, as they do offline anyway.
	cmd.Env = r.Environ(map[string]string{"CLINE_SESSION_BACKEND_MODE": "local", "E2E_TEST": "true"})
	return cmd, nil
}
