package qwen

import (
	"cmp"
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/instrlab/instrlab/internal/client"
	"github.com/instrlab/instrlab/internal/client/gemini"
)

// SettingsFile is the copy of settings.json kept in the client dir.
const SettingsFile = "settings.json"

// Settings renders ~/.qwen/settings.json for one run: the lab as the only
// MCP server, trusted (gemini.ServerEntry), OpenAI-compatible auth, usage statistics and
// telemetry off; the arm's settings, a per-server one (mcpServers.*.KEY)
// in each server's entry.
func Settings(servers []client.Server, arm client.Arm) ([]byte, error) {
	entries, err := client.ServerObject(servers, func(s client.Server) (map[string]any, error) {
		return gemini.ServerEntry(s, arm), nil
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
	if err := arm.SetIn(cfg); err != nil {
		return nil, err
	}
	return client.EncodeConfig(cfg, "qwen settings")
}

// Command implements client.Client: qwen with the prompt as its argument,
// stream-json output, debug logging, the fake as the OpenAI endpoint.
func (q *Qwen) Command(ctx context.Context, r *client.Run) (*exec.Cmd, error) {
	if q.script == "" {
		return nil, fmt.Errorf("%s@%s is not provisioned", Name, q.Version)
	}
	cfg, err := Settings(r.Servers, r.Arm)
	if err != nil {
		return nil, err
	}
	if err := r.WriteConfig(filepath.Join(r.Home, ".qwen", "settings.json"), SettingsFile, cfg); err != nil {
		return nil, err
	}
	model := cmp.Or(r.Model, DefaultModel)
	args := []string{q.script, "--output-format", "stream-json", "--debug"}
	if r.Arm.Approval == client.ApprovalPlan {
		args = append(args, "--approval-mode", "plan")
	}
	args = append(args, r.Flags...)
	args = append(args, r.Prompt)
	cmd := exec.CommandContext(ctx, q.node, args...)
	cmd.Dir = r.Work
	env := map[string]string{
		"OPENAI_API_KEY":  r.APIKey,
		"OPENAI_BASE_URL": strings.TrimRight(r.APIURL, "/") + "/v1",
		"OPENAI_MODEL":    model,
		// Skip the relaunch of cli.js in a second node process (for a
		// larger heap): the same run, one full start-up less
		// (docs/clients.md, Qwen Code).
		"QWEN_CODE_NO_RELAUNCH": "true",
	}
	if r.Arm.Direct {
		delete(env, "OPENAI_BASE_URL") // the vendor's host (Vendor)
	}
	cmd.Env = r.Environ(env)
	return cmd, nil
}

// Vendor implements client.Direct. With its "openai" auth and no
// OPENAI_BASE_URL, Qwen Code posts to its own vendor, Alibaba Cloud's
// DashScope (https://dashscope.aliyuncs.com/compatible-mode/v1, the
// default of its OpenAI-compatible provider; its code also tells
// DashScope's hosts from others, read in 0.24.4's bundle; measured: the
// first direct run asked the jail for dashscope.aliyuncs.com, not
// api.openai.com). It runs on Node, which reads NODE_EXTRA_CA_CERTS.
func (q *Qwen) Vendor() client.Vendor {
	return client.Vendor{
		Hosts:    []string{"dashscope.aliyuncs.com"},
		TrustEnv: []string{"NODE_EXTRA_CA_CERTS"},
		Says:     "no OPENAI_BASE_URL: DashScope's OpenAI-compatible API at dashscope.aliyuncs.com with the same dummy OPENAI_API_KEY and model",
	}
}
