package droid

import (
	"cmp"
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/instrlab/instrlab/internal/client"
	"github.com/instrlab/instrlab/internal/version"
)

// SettingsFile and MCPFile are the copies of ~/.factory/settings.json and
// ~/.factory/mcp.json kept in the client dir.
const (
	SettingsFile = "settings.json"
	MCPFile      = "mcp.json"
)

// Provider is the custom model's provider: Droid's name for any OpenAI
// Chat Completions API.
const Provider = "generic-chat-completion-api"

// Settings renders ~/.factory/settings.json for one run: the fake as the
// one custom model (BYOK: no Factory account is asked for), and the arm's
// settings on top; no custom model in the direct arm (Vendor).
func Settings(r *client.Run, model string) ([]byte, error) {
	if r.Arm.Direct {
		return encode(map[string]any{}, SettingsFile)
	}
	cfg := map[string]any{
		"customModels": []map[string]any{{
			"model":           model,
			"displayName":     model,
			"baseUrl":         strings.TrimRight(r.APIURL, "/") + "/v1",
			"apiKey":          r.APIKey,
			"provider":        Provider,
			"maxOutputTokens": 4096,
		}},
	}
	if err := r.Arm.SetIn(cfg); err != nil {
		return nil, err
	}
	return encode(cfg, SettingsFile)
}

// MCPConfig renders ~/.factory/mcp.json: the run's servers over stdio, in
// the config's order, with the arm's per-server settings
// (mcpServers.*.KEY) in each entry.
func MCPConfig(servers []client.Server, arm client.Arm) ([]byte, error) {
	// {"type":"http","url":...}, the form of droid 0.225.2's own
	// registry of remote servers.
	return client.TypedServersConfig(servers, arm, "http", nil, "droid "+MCPFile)
}

func encode(v any, name string) ([]byte, error) { return client.EncodeConfig(v, "droid "+name) }

// Command implements client.Client: droid exec with the custom model,
// stream-json events on stdout, auto-update off.
func (d *Droid) Command(ctx context.Context, r *client.Run) (*exec.Cmd, error) {
	if d.bin == "" {
		return nil, fmt.Errorf("%s@%s is not provisioned", Name, d.Version)
	}
	model := cmp.Or(r.Model, DefaultModel)
	dir := filepath.Join(r.Home, ".factory")
	settings, err := Settings(r, model)
	if err != nil {
		return nil, err
	}
	if err := r.WriteConfig(filepath.Join(dir, "settings.json"), SettingsFile, settings); err != nil {
		return nil, err
	}
	mcp, err := MCPConfig(r.Servers, r.Arm)
	if err != nil {
		return nil, err
	}
	if err := r.WriteConfig(filepath.Join(dir, "mcp.json"), MCPFile, mcp); err != nil {
		return nil, err
	}
	args := []string{"exec", "-m", "custom:" + model, "-o", "stream-json"}
	if r.Arm.Direct {
		args = []string{"exec", "-o", "stream-json"} // Factory's default model
	}
	if r.CallTools && r.Arm.Approval == "" {
		// droid exec 0.225.2 refuses an MCP tool below --auto high (and
		// says "Re-run with --auto high" when given medium).
		args = append(args, "--auto", "high")
	}
	args = append(args, r.Flags...)
	args = append(args, r.Prompt)
	cmd := exec.CommandContext(ctx, d.bin, args...)
	cmd.Dir = r.Work
	env := map[string]string{"FACTORY_DROID_AUTO_UPDATE_ENABLED": "false"}
	if version.Valid(d.Version) && version.Compare(d.Version, KeylessSince) < 0 {
		env["FACTORY_API_KEY"] = OfflineKey
	}
	if r.Arm.Direct {
		env["FACTORY_API_KEY"] = DirectKeyPrefix + r.APIKey
	}
	cmd.Env = r.Environ(env)
	return cmd, nil
}

// KeylessSince is the oldest release that runs a custom model with no
// Factory credentials. The releases before it (0.99.0 to 0.117.0) end
// droid exec with "Authentication failed. Please log in using /login or
// set a valid FACTORY_API_KEY environment variable." before any model
// request, and run offline when FACTORY_API_KEY has any value
// (docs/clients.md): they are given OfflineKey. The releases from it on
// run without one, as they were measured.
const KeylessSince = "0.215.0"

// OfflineKey is the FACTORY_API_KEY the releases before KeylessSince are
// given; Factory's service, unreachable from a run, never sees it.
const OfflineKey = "instrlab-offline"
