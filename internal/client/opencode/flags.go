package opencode

import (
	"context"
	"os"
	"regexp"
	"sync"

	"github.com/instrlab/instrlab/internal/client"
	"github.com/instrlab/instrlab/internal/client/npm"
)

// requiredFlags are the options of "opencode run" a run needs. 0.1.174's
// run --help lists neither --format nor --log-level; given them, it prints
// its help and exits 0 without a model request (swept,
// atlas/opencode@0.1.174), so a version without them is refused.
var requiredFlags = []string{"--format", "--log-level"}

// runFlags returns the long options "bin run --help" lists, asked once per
// install (npm.Saved under prefix), or an error naming a required one the
// version lacks.
func runFlags(ctx context.Context, bin, prefix string) (map[string]bool, error) {
	out, err := npm.SavedRun(ctx, prefix, "run-help", func(home string) []string {
		return []string{"PATH=/usr/local/bin:/usr/bin:/bin", "HOME=" + home, "XDG_CONFIG_HOME=" + home,
			"XDG_DATA_HOME=" + home, "XDG_CACHE_HOME=" + home, "XDG_STATE_HOME=" + home,
			"OPENCODE_DISABLE_AUTOUPDATE=1", "OPENCODE_DISABLE_MODELS_FETCH=1"}
	}, bin, "run", "--help")
	if err != nil {
		return nil, err
	}
	return client.Options(out, "run --help", requiredFlags...)
}

// cacheVersionRE is compiled on first use: a compile at package
// initialization is paid by every start of instrlab, serve lab's too
// (TestNoInitTimeCompiles).
var cacheVersionRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`CACHE_VERSION = "([0-9]+)"`) })

// cacheVersion returns the version opencode writes in its cache folder's
// "version" file (CACHE_VERSION, found in the source its binary embeds),
// asked once per install, or "" when the binary names none. A start whose
// cache folder holds another version empties the folder first, so a run
// that puts a file there must write this version beside it.
func cacheVersion(bin, prefix string) (string, error) {
	out, err := npm.Saved(prefix, "cache-version", func() ([]byte, error) {
		b, err := os.ReadFile(bin)
		if err != nil {
			return nil, err
		}
		if m := cacheVersionRE().FindSubmatch(b); m != nil {
			return m[1], nil
		}
		return []byte("none"), nil
	})
	if err != nil || string(out) == "none" {
		return "", err
	}
	return string(out), nil
}
