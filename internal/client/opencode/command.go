package opencode

import (
	"context"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/instrlab/instrlab/internal/client"
)

// ConfigFile is opencode's project config, written in the working folder
// and copied to the client dir.
const ConfigFile = "opencode.json"

// ModelsFile is opencode's copy of the models.dev database, read from its
// cache folder before anything else. Models is what a run is given: no
// providers but the config's. Without the file, 1.1.27 (whose bundled copy
// is not reachable in its build) fetches https://models.dev/api.json even
// with OPENCODE_DISABLE_MODELS_FETCH, fails offline and exits 0 without a
// model request (swept, atlas/opencode@1.1.27); every version reads
// the same file, so every version gets it, with the cache version its
// binary names (see cacheVersion) so that opencode keeps it.
const (
	ModelsFile = "models.json"
	Models     = "{}\n"
)

// Command implements client.Client: opencode run with JSON events and its
// log on stderr, models fetch and auto-update off.
func (c *Opencode) Command(ctx context.Context, r *client.Run) (*exec.Cmd, error) {
	if c.bin == "" {
		return nil, fmt.Errorf("%s@%s is not provisioned", Name, c.Version)
	}
	cache := filepath.Join(r.Home, ".cache", "opencode")
	if err := r.WriteConfig(filepath.Join(cache, ModelsFile), ModelsFile, []byte(Models)); err != nil {
		return nil, err
	}
	if c.cacheVersion != "" {
		if err := os.WriteFile(filepath.Join(cache, "version"), []byte(c.cacheVersion), 0o644); err != nil {
			return nil, fmt.Errorf("writing opencode's cache version: %w", err)
		}
	}
	env := map[string]string{
		KeyEnv:                          r.APIKey,
		"OPENCODE_DISABLE_MODELS_FETCH": "1",
		"OPENCODE_DISABLE_AUTOUPDATE":   "1",
	}
	var extra map[string]any
	if Old.Has(c.Version) {
		maps.Copy(env, Old.Env)
		extra = Old.Settings
	}
	return RunCommand(ctx, c.bin, r, ConfigFile, KeyRef, env, extra)
}

// RunCommand writes Config (with key and extra) as file in the working folder and
// the client dir, and returns "bin run" with JSON events and the debug log
// on stderr, in the environment env: the command of opencode and of its
// forks.
func RunCommand(ctx context.Context, bin string, r *client.Run, file, key string, env map[string]string, extra map[string]any) (*exec.Cmd, error) {
	cfg, err := Config(r, r.Model, key, extra)
	if err != nil {
		return nil, err
	}
	for _, p := range []string{filepath.Join(r.Work, file), filepath.Join(r.ClientDir(), file)} {
		if err := os.WriteFile(p, cfg, 0o644); err != nil {
			return nil, fmt.Errorf("writing %s: %w", file, err)
		}
	}
	args := []string{"run", "--format", "json", "--print-logs", "--log-level", "DEBUG"}
	if r.Arm.Approval == client.ApprovalPlan {
		args = append(args, "--agent", "plan")
	}
	args = append(args, r.Flags...)
	args = append(args, r.Prompt)
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = r.Work
	cmd.Env = r.Environ(env)
	return cmd, nil
}
