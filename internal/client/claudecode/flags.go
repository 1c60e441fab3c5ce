package claudecode

import (
	"context"
	"fmt"
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

// helpFlags runs bin --help and returns the long options it lists.
func helpFlags(ctx context.Context, bin string) (map[string]bool, error) {
	out, err := runQuiet(ctx, bin, "--help", true)
	if err != nil {
		return nil, err
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
