package kilo

import (
	"context"
	"fmt"
	"os/exec"

	"github.com/instrlab/instrlab/internal/client"
	"github.com/instrlab/instrlab/internal/client/opencode"
)

// ConfigFile is Kilo's project config, written in the working folder and
// copied to the client dir. Kilo is a fork of opencode and reads the same
// config, written with the key itself: this version rejects the whole file
// (ConfigInvalidError) when the key is a reference to a variable,
// {env:NAME}.
const ConfigFile = "kilo.json"

// Command implements client.Client: kilo run, as opencode run, with models
// fetch, auto-update, sharing, telemetry, codebase indexing and the default
// plugins (installed from npm at start) off.
func (k *Kilo) Command(ctx context.Context, r *client.Run) (*exec.Cmd, error) {
	if k.bin == "" {
		return nil, fmt.Errorf("%s@%s is not provisioned", Name, k.Version)
	}
	return opencode.RunCommand(ctx, k.bin, r, ConfigFile, r.APIKey, map[string]string{
		"KILO_DISABLE_MODELS_FETCH":      "1",
		"KILO_DISABLE_AUTOUPDATE":        "1",
		"KILO_DISABLE_SHARE":             "1",
		"KILO_DISABLE_DEFAULT_PLUGINS":   "1",
		"KILO_DISABLE_LSP_DOWNLOAD":      "1",
		"KILO_DISABLE_SESSION_INGEST":    "1",
		"KILO_DISABLE_CODEBASE_INDEXING": "1",
		"KILO_TELEMETRY_LEVEL":           "off",
	}, nil)
}
