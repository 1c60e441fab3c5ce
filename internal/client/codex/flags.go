package codex

import (
	"bufio"
	"bytes"
	"context"
	"strings"

	"github.com/instrlab/instrlab/internal/client"
	"github.com/instrlab/instrlab/internal/client/npm"
)

// requiredFlags are the exec options a run needs: a version whose exec
// --help lacks one cannot be driven. --disable is optional (see Command).
var requiredFlags = []string{"--json", "--skip-git-repo-check"}

// asked runs bin with args in an empty CODEX_HOME, once per install
// (npm.SavedRun under prefix, as name), and returns its output.
func asked(ctx context.Context, bin, prefix, name string, args ...string) ([]byte, error) {
	return npm.SavedRun(ctx, prefix, name, func(home string) []string {
		return []string{"PATH=/usr/local/bin:/usr/bin:/bin", "HOME=" + home, "CODEX_HOME=" + home}
	}, bin, args...)
}

// execFlags returns the long options "codex exec --help" lists, asked once
// per install, or an error naming a required one the version lacks.
func execFlags(ctx context.Context, bin, prefix string) (map[string]bool, error) {
	out, err := asked(ctx, bin, prefix, "exec-help", "exec", "--help")
	if err != nil {
		return nil, err
	}
	return client.Options(out, "exec --help", requiredFlags...)
}

// features returns the feature names "codex features list" lists (the
// first word of each line), asked once per install: --disable takes only
// a feature the version knows (0.73.0 has --disable and no plugins
// feature, and exits 1 with "Unknown feature flag: plugins").
func features(ctx context.Context, bin, prefix string) (map[string]bool, error) {
	out, err := asked(ctx, bin, prefix, "features", "features", "list")
	if err != nil {
		return nil, err
	}
	names := map[string]bool{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		if f := strings.Fields(sc.Text()); len(f) > 0 {
			names[f[0]] = true
		}
	}
	return names, nil
}
