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
