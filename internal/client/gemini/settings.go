package gemini

import (
	"encoding/json"
	"fmt"

	"github.com/instrlab/instrlab/internal/client"
)

// Settings renders ~/.gemini/settings.json for one run: the lab as the only
// MCP server, trusted (no confirmation for its tools), API-key auth,
// usage statistics, telemetry and update checks off.
func Settings(s client.Server) ([]byte, error) {
	type server struct {
		Command string            `json:"command"`
		Args    []string          `json:"args"`
		Env     map[string]string `json:"env,omitempty"`
		Trust   bool              `json:"trust"`
	}
	var entry any = server{Command: s.Command, Args: s.Args, Env: s.Env, Trust: true}
	if s.URL != "" {
		entry = map[string]any{"httpUrl": s.URL, "trust": true}
	}
	cfg := map[string]any{
		"mcpServers": map[string]any{s.Name: entry},
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
