package claudecode

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sync"
)

// Options a run needs: a version whose --help lacks one cannot be driven.
// The optional ones (--settings, --strict-mcp-config, --debug-file) are
// left out of the command line of a version that lacks them (see
// Command); a run without --debug-file has no debug log, and the
// observation says so.
var requiredFlags = []string{"--mcp-config", "--output-format", "--verbose"}

var flagRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`--[a-z][a-z-]*`) })

// HelpFile keeps, inside an install's npm prefix, what its binary's
// --help printed: a version's options do not change, and reading them
// again would start the client once more before every run.
const HelpFile = "instrlab-help.txt"

// helpFlags returns the long options bin --help lists. With a prefix (an
// install of ours), the output is read from and saved to prefix/HelpFile;
// bin on PATH, which is not ours, is asked every time.
func helpFlags(ctx context.Context, bin, prefix string) (map[string]bool, error) {
	var out []byte
	if prefix != "" {
		out, _ = os.ReadFile(filepath.Join(prefix, HelpFile))
	}
	if len(out) == 0 {
		var err error
		if out, err = runQuiet(ctx, bin, "--help", true); err != nil {
			return nil, err
		}
		if prefix != "" {
			// Write then rename: a torn file would hide flags.
			tmp := filepath.Join(prefix, HelpFile+".tmp")
			if os.WriteFile(tmp, out, 0o644) == nil {
				os.Rename(tmp, filepath.Join(prefix, HelpFile))
			}
		}
	}
	flags := map[string]bool{}
	for _, f := range flagRE().FindAllString(string(out), -1) {
		flags[f] = true
	}
	for _, f := range requiredFlags {
		if !flags[f] {
			return nil, fmt.Errorf("cannot be driven: its --help lists no %s", f)
		}
	}
	return flags, nil
}
