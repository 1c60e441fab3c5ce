package opencode

import (
	"encoding/json"
	"fmt"
	"maps"
	"strings"

	"github.com/instrlab/instrlab/internal/client"
)

// ProviderID and DefaultModel name the provider and model the config adds;
// DirectProvider and DirectModel those of the direct arm.
const (
	ProviderID     = "instrlab"
	DefaultModel   = "fake-model"
	DirectProvider = "anthropic"
	DirectModel    = "claude-sonnet-4-5"
)

// DirectVendor is the direct arm of opencode and its forks: the provider
// anthropic through @ai-sdk/anthropic (bundled in the executable) with no
// baseURL, so the SDK's default https://api.anthropic.com/v1. opencode is
// a Bun build, which reads NODE_EXTRA_CA_CERTS.
var DirectVendor = client.Vendor{
	Hosts:    []string{"api.anthropic.com"},
	TrustEnv: []string{"NODE_EXTRA_CA_CERTS"},
	Says:     "the provider anthropic (@ai-sdk/anthropic, model " + DirectModel + ") with no baseURL, instead of an OpenAI-compatible provider at the fake",
}

// KeyEnv is the variable opencode's config reads the API key from, and
// KeyRef how the config names it.
const (
	KeyEnv = "INSTRLAB_OPENAI_KEY"
	KeyRef = "{env:" + KeyEnv + "}"
)

// Config renders opencode.json for one run: a provider through
// @ai-sdk/openai-compatible at the fake with key as its API key (KeyRef,
// or the key itself for a fork that rejects references), the lab as the
// only MCP server, sharing and auto-update off, and the top-level keys of
// extra (a version's own, see Old), before the arm's settings.
func Config(r *client.Run, model, key string, extra map[string]any) ([]byte, error) {
	if model == "" {
		model = DefaultModel
	}
	mcp, err := client.ServerObject(r.Servers, func(s client.Server) (map[string]any, error) {
		if s.URL != "" {
			e := map[string]any{"type": "remote", "url": s.URL, "enabled": true}
			maps.Copy(e, r.Arm.ServerSettings("mcp"))
			return e, nil
		}
		e := map[string]any{"type": "local", "command": append([]string{s.Command}, s.Args...), "enabled": true}
		if len(s.Env) > 0 {
			// Only when set: opencode drops a server whose environment is null.
			e["environment"] = s.Env
		}
		maps.Copy(e, r.Arm.ServerSettings("mcp"))
		return e, nil
	})
	if err != nil {
		return nil, err
	}
	provider, entry := ProviderID, map[string]any{
		"npm":     "@ai-sdk/openai-compatible",
		"name":    "instrlab fake",
		"options": map[string]any{"baseURL": strings.TrimRight(r.APIURL, "/") + "/v1", "apiKey": key},
		"models":  map[string]any{model: map[string]any{"name": model}},
	}
	if r.Arm.Direct {
		// The built-in provider anthropic through its own SDK, with no
		// baseURL: the SDK's default, api.anthropic.com (Vendor).
		if model == DefaultModel {
			model = DirectModel
		}
		provider, entry = DirectProvider, map[string]any{
			"npm":     "@ai-sdk/anthropic",
			"name":    "Anthropic",
			"options": map[string]any{"apiKey": key},
			"models":  map[string]any{model: map[string]any{"name": model}},
		}
	}
	cfg := map[string]any{
		"model":      provider + "/" + model,
		"autoupdate": false,
		"share":      "disabled",
		"provider":   map[string]any{provider: entry},
		"mcp":        mcp,
	}
	maps.Copy(cfg, extra)
	if err := r.Arm.SetIn(cfg); err != nil {
		return nil, err
	}
	b, err := json.MarshalIndent(cfg, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("encoding opencode.json: %w", err)
	}
	return append(b, '\n'), nil
}
