package cline

import (
	"context"
	"os/exec"
	"path/filepath"

	"github.com/instrlab/instrlab/internal/client"
)

// coreCommand writes the core's settings (CoreState) under
// ~/.cline/data and returns 2.x's headless command: node on its script,
// auto-approval (--yolo) and JSON messages.
func (c *Cline) coreCommand(ctx context.Context, r *client.Run, model string) (*exec.Cmd, error) {
	data := filepath.Join(r.Home, ".cline", "data")
	global, secrets, err := CoreState(r, model)
	if err != nil {
		return nil, err
	}
	if err := r.WriteConfig(filepath.Join(data, GlobalStateFile), GlobalStateFile, global); err != nil {
		return nil, err
	}
	if err := r.WriteConfig(filepath.Join(data, SecretsFile), SecretsFile, secrets); err != nil {
		return nil, err
	}
	// CLINE_NO_AUTO_UPDATE: else the CLI asks npm's registry for a newer
	// release at start and may install it globally, detached.
	args := append([]string{c.bin, "--yolo", "--json"}, r.Flags...)
	cmd := exec.CommandContext(ctx, c.node, append(args, r.Prompt)...)
	cmd.Dir = r.Work
	cmd.Env = r.Environ(map[string]string{"CLINE_NO_AUTO_UPDATE": "1"})
	return cmd, nil
}
