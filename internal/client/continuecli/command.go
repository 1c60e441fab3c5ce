package continuecli

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/instrlab/instrlab/internal/client"
)

// ConfigFile is the copy of config.yaml kept in the client dir.
const ConfigFile = "config.yaml"

// Config renders ~/.continue/config.yaml for one run: the fake as an
// OpenAI provider for chat, the lab as the only MCP server (stdio). YAML
// is a superset of JSON, so it is written as JSON.
func Config(r *client.Run, model string) ([]byte, error) {
	type mcpServer struct {
		Name    string            `json:"name"`
		Type    string            `json:"type"`
		Command string            `json:"command"`
		Args    []string          `json:"args"`
		Env     map[string]string `json:"env,omitempty"`
	}
	// The streamable-http form of cn 1.5.47's config schema.
	type remote struct {
		Name string `json:"name"`
		Type string `json:"type"`
		URL  string `json:"url"`
	}
	if err := client.CheckServers(r.Servers); err != nil {
		return nil, err
	}
	servers := make([]any, len(r.Servers)) // a list: the config's order
	for i, s := range r.Servers {
		servers[i] = mcpServer{Name: s.Name, Type: "stdio", Command: s.Command, Args: s.Args, Env: s.Env}
		if s.URL != "" {
			servers[i] = remote{Name: s.Name, Type: "streamable-http", URL: s.URL}
		}
	}
	cfg := map[string]any{
		"name":       "instrlab",
		"version":    "1.0.0",
		"schema":     "v1",
		"models":     []map[string]any{modelEntry(r, model)},
		"mcpServers": servers,
	}
	b, err := json.MarshalIndent(cfg, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("encoding continue config.yaml: %w", err)
	}
	return append(b, '\n'), nil
}

// Command implements client.Client: cn -p (headless) with the config
// above, every tool allowed, telemetry off.
func (c *Continue) Command(ctx context.Context, r *client.Run) (*exec.Cmd, error) {
	if c.script == "" {
		return nil, fmt.Errorf("%s@%s is not provisioned", Name, c.Version)
	}
	model := cmp.Or(r.Model, DefaultModel)
	cfg, err := Config(r, model)
	if err != nil {
		return nil, err
	}
	path := filepath.Join(r.Home, ".continue", "config.yaml")
	if err := r.WriteConfig(path, ConfigFile, cfg); err != nil {
		return nil, err
	}
	args := []string{c.script, "-p", "--config", path, "--verbose"}
	switch r.Arm.Approval {
	case "":
		args = append(args, "--auto") // every tool allowed
	case client.ApprovalPlan:
		args = append(args, "--readonly")
	}
	args = append(args, r.Flags...)
	args = append(args, r.Prompt)
	cmd := exec.CommandContext(ctx, c.node, args...)
	cmd.Dir = r.Work
	cmd.Env = r.Environ(map[string]string{"CONTINUE_METRICS_ENABLED": "0", "CONTINUE_CLI_ENABLE_TELEMETRY": "0"})
	return cmd, nil
}

// DirectProvider and DirectModel are the model of the direct arm.
const (
	DirectProvider = "anthropic"
	DirectModel    = "claude-sonnet-4-5"
)

// modelEntry is the config's one model: the fake as an OpenAI provider,
// or, in the direct arm, the provider anthropic with no apiBase (Vendor).
func modelEntry(r *client.Run, model string) map[string]any {
	if r.Arm.Direct {
		if model == DefaultModel {
			model = DirectModel
		}
		return map[string]any{"name": "anthropic", "provider": DirectProvider, "model": model, "apiKey": r.APIKey, "roles": []string{"chat"}}
	}
	return map[string]any{
		"name":     "fake",
		"provider": "openai",
		"model":    model,
		"apiKey":   r.APIKey,
		"apiBase":  strings.TrimRight(r.APIURL, "/") + "/v1/",
		"roles":    []string{"chat"},
	}
}

// Vendor implements client.Direct: a model of the provider anthropic with
// no apiBase goes to https://api.anthropic.com (the SDK's default). It
// runs on Node, which reads NODE_EXTRA_CA_CERTS.
func (c *Continue) Vendor() client.Vendor {
	return client.Vendor{
		Hosts:    []string{"api.anthropic.com"},
		TrustEnv: []string{"NODE_EXTRA_CA_CERTS"},
		Says:     "a model of the provider anthropic (" + DirectModel + ") with no apiBase, instead of an OpenAI provider at the fake",
	}
}
