package gemini

import (
	"maps"

	"github.com/instrlab/instrlab/internal/client"
)

// Settings renders ~/.gemini/settings.json for one run: the lab as the only
// MCP server, trusted (ServerEntry), API-key auth,
// usage statistics, telemetry and update checks off; the arm's per-server
// settings (mcpServers.*.KEY) in each server's entry.
func Settings(servers []client.Server, arm client.Arm) ([]byte, error) {
	entries, err := client.ServerObject(servers, func(s client.Server) (map[string]any, error) {
		return ServerEntry(s, arm), nil
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
	return client.EncodeConfig(cfg, "gemini settings")
}

// ServerEntry is one server's entry under mcpServers in Gemini CLI's
// settings.json, and in those of its fork Qwen Code: trusted (no
// confirmation for its tools) unless the arm has an approval mode,
// httpUrl or command, args and env, then the arm's per-server settings
// (mcpServers.*.KEY).
func ServerEntry(s client.Server, arm client.Arm) map[string]any {
	e := map[string]any{"trust": arm.Approval == ""}
	if s.URL != "" {
		e["httpUrl"] = s.URL
	} else {
		client.StdioEntry(e, s)
	}
	maps.Copy(e, arm.ServerSettings("mcpServers"))
	return e
}
