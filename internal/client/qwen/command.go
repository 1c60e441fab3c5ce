package qwen

import (
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/instrlab/instrlab/internal/client"
)

// SettingsFile is the copy of settings.json kept in the client dir.
const SettingsFile = "settings.json"

// Settings renders ~/.qwen/settings.json for one run: the lab as the only
// MCP server, trusted, OpenAI-compatible auth, usage statistics and
// telemetry off.
func Settings(servers []client.Server) ([]byte, error) {
	type server struct {
		Command string            `json:"command"`
		Args    []string          `json:"args"`
		Env     map[string]string `json:"env,omitempty"`
		Trust   bool              `json:"trust"`
	}
	entries, err := client.ServerObject(servers, func(s client.Server) (any, error) {
		if s.URL != "" {
			return map[string]any{"httpUrl": s.URL, "trust": true}, nil
		}
		return server{Command: s.Command, Args: s.Args, Env: s.Env, Trust: true}, nil
	})
	if err != nil {
		return nil, err
	}
	cfg := map[string]any{
		"mcpServers": entries,
		"security":   map[string]any{"auth": map[string]any{"selectedType": "openai"}},
		"privacy":    map[string]any{"usageStatisticsEnabled": false},
		"telemetry":  map[string]any{"enabled": false},
		"general":    map[string]any{"disableAutoUpdate": true, "disableUpdateNag": true},
	}
	b, err := json.MarshalIndent(cfg, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("encoding qwen settings: %w", err)
	}
	return append(b, '\n'), nil
}

// Command implements client.Client: qwen with the prompt as its argument,
// stream-json output, debug logging, the fake as the OpenAI endpoint.
func (q *Qwen) Command(ctx context.Context, r *client.Run) (*exec.Cmd, error) {
	if q.script == "" {
		return nil, fmt.Errorf("%s@%s is not provisioned", Name, q.version)
	}
	cfg, err := Settings(r.Servers)
	if err != nil {
		return nil, err
	}
	if err := r.WriteConfig(filepath.Join(r.Home, ".qwen", "settings.json"), SettingsFile, cfg); err != nil {
		return nil, err
	}
	model := r.Model
	if model == "" {
		model = DefaultModel
	}
	args := []string{q.script, "--output-format", "stream-json", "--debug"}
	args = append(args, r.Flags...)
	args = append(args, r.Prompt)
	cmd := exec.CommandContext(ctx, q.node, args...)
	cmd.Dir = r.Work
	cmd.Env = r.Environ(map[string]string{
		"OPENAI_API_KEY":  r.APIKey,
		"OPENAI_BASE_URL": strings.TrimRight(r.APIURL, "/") + "/v1",
		"OPENAI_MODEL":    model,
	})
	return cmd, nil
}
