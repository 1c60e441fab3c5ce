package codex

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"time"

	"github.com/instrlab/instrlab/internal/client"
	"github.com/instrlab/instrlab/internal/client/npm"
)

// requiredFlags are the exec options a run needs: a version whose exec
// --help lacks one cannot be driven. --disable is optional (see Command).
var requiredFlags = []string{"--json", "--skip-git-repo-check"}

// execFlags returns the long options "codex exec --help" lists, asked once
// per install (npm.Saved under prefix), or an error naming a required one
// the version lacks.
func execFlags(ctx context.Context, bin, prefix string) (map[string]bool, error) {
	out, err := npm.Saved(prefix, "exec-help", func() ([]byte, error) {
		ctx, cancel := context.WithTimeout(ctx, 90*time.Second)
		defer cancel()
		home, err := os.MkdirTemp("", "instrlab-codex-")
		if err != nil {
			return nil, err
		}
		defer os.RemoveAll(home)
		cmd := exec.CommandContext(ctx, bin, "exec", "--help")
		cmd.Env = []string{"PATH=/usr/local/bin:/usr/bin:/bin", "HOME=" + home, "CODEX_HOME=" + home}
		out, err := cmd.CombinedOutput()
		if err != nil {
			return nil, fmt.Errorf("running %s exec --help: %w: %s", bin, err, firstLine(out))
		}
		return out, nil
	})
	if err != nil {
		return nil, err
	}
	return client.Options(out, "exec --help", requiredFlags...)
}

func firstLine(b []byte) string {
	for i, c := range b {
		if c == '\n' {
			return string(b[:i])
		}
	}
	return string(b)
}
