package copilot

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/instrlab/instrlab/internal/client"
)

// ConfigFile is the copy of mcp-config.json kept in the client dir.
const ConfigFile = "mcp-config.json"

// LogDir is where the run's log goes, relative to the run dir.
const LogDir = "client/logs"

// MCPConfig renders ~/.copilot/mcp-config.json for one run: the lab as the
// only MCP server, a local (stdio) server with every tool allowed.
func MCPConfig(servers []client.Server) ([]byte, error) {
	type server struct {
		Type    string            `json:"type"`
		Command string            `json:"command"`
		Args    []string          `json:"args"`
		Env     map[string]string `json:"env,omitempty"`
		Tools   []string          `json:"tools"`
	}
	// MCPRemoteServerConfig of copilot-sdk/types.d.ts (1.0.102).
	type remote struct {
		Type  string   `json:"type"`
		URL   string   `json:"url"`
		Tools []string `json:"tools"`
	}
	entries, err := client.ServerObject(servers, func(s client.Server) (any, error) {
		if s.URL != "" {
			return remote{Type: "http", URL: s.URL, Tools: []string{"*"}}, nil
		}
		return server{Type: "local", Command: s.Command, Args: s.Args, Env: s.Env, Tools: []string{"*"}}, nil
	})
	if err != nil {
		return nil, err
	}
	cfg := map[string]any{"mcpServers": entries}
	b, err := json.MarshalIndent(cfg, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("encoding copilot mcp-config.json: %w", err)
	}
	return append(b, '\n'), nil
}

// Command implements client.Client: copilot -p with JSON Lines output and a
// debug log, offline mode, the fake as an OpenAI-compatible provider, no
// auto-update, no custom instructions from the work folder (flags, by
// version), the package unpacked at provisioning (pkgEnv). In the direct
// arm it runs online with a GitHub token instead of offline with a
// provider (Vendor).
func (c *Copilot) Command(ctx context.Context, r *client.Run) (*exec.Cmd, error) {
	if c.bin == "" {
		return nil, fmt.Errorf("%s@%s is not provisioned", Name, c.Version)
	}
	cfg, err := MCPConfig(r.Servers)
	if err != nil {
		return nil, err
	}
	if err := r.WriteConfig(filepath.Join(r.Home, ".copilot", "mcp-config.json"), ConfigFile, cfg); err != nil {
		return nil, err
	}
	model := cmp.Or(r.Model, DefaultModel)
	args := append([]string{"-p", r.Prompt}, flags(c.Version, filepath.Join(r.Dir, LogDir))...)
	if r.Arm.Approval != "" {
		args = slices.DeleteFunc(args, func(a string) bool { return a == AllowAllTools })
	}
	args = append(args, r.Flags...)
	env := map[string]string{
		"COPILOT_OFFLINE":           "true",
		"COPILOT_AUTO_UPDATE":       "false",
		"COPILOT_PROVIDER_TYPE":     "openai",
		"COPILOT_PROVIDER_BASE_URL": strings.TrimRight(r.APIURL, "/") + "/v1",
		"COPILOT_PROVIDER_API_KEY":  r.APIKey,
		"COPILOT_MODEL":             model,
	}
	if r.Arm.Direct {
		// Online, signed in to GitHub, no provider (Vendor).
		for _, k := range []string{"COPILOT_OFFLINE", "COPILOT_PROVIDER_TYPE", "COPILOT_PROVIDER_BASE_URL", "COPILOT_PROVIDER_API_KEY"} {
			delete(env, k)
		}
		env["COPILOT_GITHUB_TOKEN"] = TokenPrefix + r.APIKey
	}
	if c.script != "" {
		args = append([]string{c.script}, args...)
	} else {
		pkg, err := pkgEnv(r.Home, c.pkgCache, c.pkgRoot)
		if err != nil {
			return nil, err
		}
		maps.Copy(env, pkg)
	}
	cmd := exec.CommandContext(ctx, c.bin, args...)
	cmd.Dir = r.Work
	cmd.Env = r.Environ(env)
	return cmd, nil
}
