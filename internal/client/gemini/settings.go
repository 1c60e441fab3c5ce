package gemini

import (
	"encoding/json"
	"fmt"

	"github.com/instrlab/instrlab/internal/client"
)

// Settings renders ~/.gemini/settings.json for one run: the lab as the only
// MCP server, trusted (no confirmation for its tools), API-key auth,
// usage statistics, telemetry and update checks off.
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
		"security":   map[string]any{"auth": map[string]any{"selectedType": "gemini-api-key"}},
		"privacy":    map[string]any{"usageStatisticsEnabled": false},
		"telemetry":  map[string]any{"enabled": false},
		"general":    map[string]any{"disableAutoUpdate": true, "disableUpdateNag": true},
	}
	b, err := json.MarshalIndent(cfg, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("encoding gemini settings: %w", err)
	}
	return append(b, '\n'), nil
}
