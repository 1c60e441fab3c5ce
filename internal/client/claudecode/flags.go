package claudecode

import (
	"context"

	"github.com/instrlab/instrlab/internal/client"
	"github.com/instrlab/instrlab/internal/client/npm"
)

// Options a run needs: a version whose --help lacks one cannot be driven.
// The optional ones (--settings, --strict-mcp-config, --debug-file) are
// left out of the command line of a version that lacks them (see
// Command); a run without --debug-file has no debug log, and the
// observation says so.
var requiredFlags = []string{"--mcp-config", "--output-format", "--verbose"}

// helpFlags returns the long options bin --help lists, asked once per
// install of ours (prefix, see npm.Saved); bin on PATH ("" prefix), which
// is not ours, is asked every time.
func helpFlags(ctx context.Context, bin, prefix string) (map[string]bool, error) {
	out, err := npm.Saved(prefix, "help", func() ([]byte, error) { return runQuiet(ctx, bin, "--help", true) })
	if err != nil {
		return nil, err
	}
	return client.Options(out, "--help", requiredFlags...)
}
