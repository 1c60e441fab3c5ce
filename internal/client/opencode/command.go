package opencode

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/instrlab/instrlab/internal/client"
)

// ConfigFile is opencode's project config, written in the working folder
// and copied to the client dir.
const ConfigFile = "opencode.json"

// Command implements client.Client: opencode run with JSON events and its
// log on stderr, models fetch and auto-update off.
func (c *Opencode) Command(ctx context.Context, r *client.Run) (*exec.Cmd, error) {
	if c.bin == "" {
		return nil, fmt.Errorf("%s@%s is not provisioned", Name, c.version)
	}
	cfg, err := Config(r, r.Model)
	if err != nil {
		return nil, err
	}
	for _, p := range []string{filepath.Join(r.Work, ConfigFile), filepath.Join(r.ClientDir(), ConfigFile)} {
		if err := os.WriteFile(p, cfg, 0o644); err != nil {
			return nil, fmt.Errorf("writing opencode.json: %w", err)
		}
	}
	args := []string{"run", "--format", "json", "--print-logs", "--log-level", "DEBUG"}
	args = append(args, r.Flags...)
	args = append(args, r.Prompt)
	cmd := exec.CommandContext(ctx, c.bin, args...)
	cmd.Dir = r.Work
	cmd.Env = r.Environ(map[string]string{
		"INSTRLAB_OPENAI_KEY":           r.APIKey,
		"OPENCODE_DISABLE_MODELS_FETCH": "1",
		"OPENCODE_DISABLE_AUTOUPDATE":   "1",
	})
	return cmd, nil
}
