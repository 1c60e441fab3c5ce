package gemini

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/instrlab/instrlab/internal/client"
)

// SettingsFile is the copy of settings.json kept in the client dir.
const SettingsFile = "settings.json"

// Command implements client.Client: gemini -p with stream-json output and
// debug logging, the workspace trusted through the environment, the key
// and base URL of the fake.
func (g *Gemini) Command(ctx context.Context, r *client.Run) (*exec.Cmd, error) {
	if g.script == "" {
		return nil, fmt.Errorf("%s@%s is not provisioned", Name, g.Version)
	}
	cfg, err := Settings(r.Servers, r.Arm)
	if err != nil {
		return nil, err
	}
	dir := filepath.Join(r.Home, ".gemini")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("creating ~/.gemini: %w", err)
	}
	for _, p := range []string{filepath.Join(dir, "settings.json"), filepath.Join(r.ClientDir(), SettingsFile)} {
		if err := os.WriteFile(p, cfg, 0o644); err != nil {
			return nil, fmt.Errorf("writing gemini settings: %w", err)
		}
	}
	args := []string{g.script, "-p", r.Prompt, "--output-format", "stream-json", "--debug"}
	if r.Model != "" {
		args = append(args, "--model", r.Model)
	}
	if r.Arm.Approval == client.ApprovalPlan {
		args = append(args, "--approval-mode", "plan")
	}
	args = append(args, r.Flags...)
	cmd := exec.CommandContext(ctx, g.node, args...)
	cmd.Dir = r.Work
	env := map[string]string{
		"GEMINI_API_KEY":             r.APIKey,
		"GOOGLE_GEMINI_BASE_URL":     r.APIURL,
		"GEMINI_CLI_TRUST_WORKSPACE": "true",
		// Skip the relaunch in a second node process with a larger heap
		// (--max-old-space-size): the same run, one full start-up less
		// (docs/clients.md, Gemini CLI).
		"GEMINI_CLI_NO_RELAUNCH": "true",
	}
	if r.Arm.Direct {
		delete(env, "GOOGLE_GEMINI_BASE_URL") // the vendor's host (Vendor)
	}
	cmd.Env = r.Environ(env)
	return cmd, nil
}

// Vendor implements client.Direct. Without GOOGLE_GEMINI_BASE_URL, the
// @google/genai SDK in Gemini CLI's bundle posts to
// https://generativelanguage.googleapis.com/ (its baseUrl for an API key,
// read in 0.61.0's bundle). It runs on Node, which reads
// NODE_EXTRA_CA_CERTS.
func (g *Gemini) Vendor() client.Vendor {
	return client.Vendor{
		Hosts:    []string{"generativelanguage.googleapis.com"},
		TrustEnv: []string{"NODE_EXTRA_CA_CERTS"},
		Says:     "no GOOGLE_GEMINI_BASE_URL: the Gemini API at generativelanguage.googleapis.com with the same dummy GEMINI_API_KEY",
	}
}
