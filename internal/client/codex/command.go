package codex

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/instrlab/instrlab/internal/client"
)

// ConfigFile is the copy of config.toml kept in the client dir.
const ConfigFile = "config.toml"

// Command implements client.Client: codex exec with JSON events, plugins
// off (they clone a repository at start; a version without --disable has
// none to turn off), no git check, CODEX_HOME under the run's HOME.
func (c *Codex) Command(ctx context.Context, r *client.Run) (*exec.Cmd, error) {
	if c.bin == "" {
		return nil, fmt.Errorf("%s@%s is not provisioned", Name, c.Version)
	}
	home := filepath.Join(r.Home, ".codex")
	if err := os.MkdirAll(home, 0o755); err != nil {
		return nil, fmt.Errorf("creating CODEX_HOME: %w", err)
	}
	cfg := Config(r, r.Model)
	for _, p := range []string{filepath.Join(home, "config.toml"), filepath.Join(r.ClientDir(), ConfigFile)} {
		if err := os.WriteFile(p, []byte(cfg), 0o644); err != nil {
			return nil, fmt.Errorf("writing codex config: %w", err)
		}
	}
	args := []string{"exec", "--skip-git-repo-check", "--json"}
	if !c.noDisable {
		args = append(args, "--disable", "plugins")
	}
	args = append(args, "-c", "analytics.enabled=false")
	arm, err := overrides(r.Arm, r.Servers)
	if err != nil {
		return nil, err
	}
	args = append(args, arm...)
	args = append(args, r.Flags...)
	args = append(args, r.Prompt)
	cmd := exec.CommandContext(ctx, c.bin, args...)
	cmd.Dir = r.Work
	// RUST_LOG=info makes Codex log its MCP tool catalog, the only
	// place it says a server connected.
	env := map[string]string{"CODEX_HOME": home, KeyVar: r.APIKey, "RUST_LOG": "info"}
	if r.Arm.Direct {
		delete(env, KeyVar)
		env[DirectKeyVar] = r.APIKey
	}
	cmd.Env = r.Environ(env)
	return cmd, nil
}

// CallModel is the model a run whose script calls tools names when its
// row names none (ToolModel). With a model of its catalogue (0.171.0's
// default, gpt-6.2-sol) Codex offers MCP tools only to JavaScript run by
// its exec tool (tools.mcp__lab__NAME(...)), which the fake does not
// write; with a model outside it, each server's tools are functions of a
// namespace mcp__SERVER, which the fake calls by name and namespace
// (docs/surface.md).
const CallModel = "local-model"

// ToolModel implements client.ToolModeler.
func (c *Codex) ToolModel() (model, why string) {
	return CallModel, "with a model of its catalogue Codex CLI offers MCP tools only to code its exec tool runs, so the model cannot call them by name; with " + CallModel + " it defines them, and puts the instructions elsewhere"
}

// DirectKeyVar holds the (dummy) key in the direct arm: the variable
// Codex's exec reads an API key from for its built-in provider.
const DirectKeyVar = "CODEX_API_KEY"

// Vendor implements client.Direct. With no model_provider, Codex uses its
// built-in provider "openai" at https://api.openai.com/v1 (the Responses
// API) with an API key (CODEX_API_KEY; a ChatGPT sign-in would go to
// chatgpt.com instead), read in 0.171.0's executable. It is a Rust build
// whose HTTP client loads a custom CA bundle from its own
// CODEX_CA_CERTIFICATE (else SSL_CERT_FILE), as its custom_ca code says.
func (c *Codex) Vendor() client.Vendor {
	return client.Vendor{
		Hosts:    []string{"api.openai.com"},
		TrustEnv: []string{"CODEX_CA_CERTIFICATE"},
		Says:     "no model_provider: the built-in provider openai at api.openai.com, its key in CODEX_API_KEY",
	}
}
