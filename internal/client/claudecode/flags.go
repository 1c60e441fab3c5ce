package claudecode

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"sync"
	"time"
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
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	home, err := os.MkdirTemp("", "instrlab-help-")
	if err != nil {
		return nil, fmt.Errorf("creating a home for %s --help: %w", bin, err)
	}
	defer os.RemoveAll(home)
	cmd := exec.CommandContext(ctx, bin, "--help")
	cmd.Env = []string{"PATH=/usr/local/bin:/usr/bin:/bin", "HOME=" + home, "TMPDIR=" + home,
		"DISABLE_TELEMETRY=1", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1"}
	out, err := cmd.CombinedOutput()
	if err != nil {
		return nil, fmt.Errorf("running %s --help: %w", bin, err)
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
