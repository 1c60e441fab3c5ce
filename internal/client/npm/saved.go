package npm

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// Saved returns what ask prints about an install whose answer cannot
// change (a version's --help), asking once per install: the answer is
// kept in prefix/instrlab-NAME.txt, written then renamed so a torn file is
// never read, and goes when the install is evicted. With prefix "" (a
// client that is not our install) it asks every time.
func Saved(prefix, name string, ask func() ([]byte, error)) ([]byte, error) {
	if prefix == "" {
		return ask()
	}
	path := filepath.Join(prefix, "instrlab-"+name+".txt")
	if out, err := os.ReadFile(path); err == nil && len(out) > 0 {
		return out, nil
	}
	out, err := ask()
	if err != nil {
		return nil, err
	}
	if os.WriteFile(path+".tmp", out, 0o644) == nil {
		os.Rename(path+".tmp", path)
	}
	return out, nil
}

// SavedRun is Saved for the output of bin args, run with a time limit of
// 90 s in a fresh empty folder that is also its home (env gives the
// environment, from the home), as in asking an installed version for its
// help. A failed run is an error with the start of its output.
func SavedRun(ctx context.Context, prefix, name string, env func(home string) []string, bin string, args ...string) ([]byte, error) {
	return Saved(prefix, name, func() ([]byte, error) {
		ctx, cancel := context.WithTimeout(ctx, 90*time.Second)
		defer cancel()
		home, err := os.MkdirTemp("", "instrlab-ask-")
		if err != nil {
			return nil, err
		}
		defer os.RemoveAll(home)
		cmd := exec.CommandContext(ctx, bin, args...)
		cmd.Env = env(home)
		cmd.Dir = home
		out, err := cmd.CombinedOutput()
		if err != nil {
			return nil, fmt.Errorf("running %s %s: %w: %.200q", bin, strings.Join(args, " "), err, out)
		}
		return out, nil
	})
}
