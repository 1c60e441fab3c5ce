package derive

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/instrlab/instrlab/internal/matrix/analyze"
	"github.com/instrlab/instrlab/internal/profiles"
)

// Write derives one profile per client@version in results (Profiles) and
// writes each to dir as client@version.json, the format check reads with
// -profile FILE and the files under internal/profiles/data, and the
// evidence excerpt it came from to dir/evidence/client@version.json. It
// names each profile written on progress.
func Write(dir string, results []analyze.Result, o Options, progress io.Writer) error {
	o.Excerpts = map[string]*Excerpt{}
	ps, err := Profiles(results, o)
	if err != nil {
		return fmt.Errorf("deriving profiles: %w", err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "evidence"), 0o755); err != nil {
		return fmt.Errorf("creating %s: %w", dir, err)
	}
	for id, x := range o.Excerpts {
		b, err := x.Encode()
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, "evidence", id+".json"), b, 0o644); err != nil {
			return fmt.Errorf("writing evidence excerpt: %w", err)
		}
	}
	for _, p := range ps {
		b, err := profiles.Encode(p)
		if err != nil {
			return err
		}
		name := filepath.Join(dir, p.ID()+".json")
		if err := os.WriteFile(name, b, 0o644); err != nil {
			return fmt.Errorf("writing profile: %w", err)
		}
		fmt.Fprintf(progress, "profile %s in %s\n", p.ID(), name)
	}
	return nil
}

// EarlierIn is Options.Earlier for the excerpts named by pattern, {id}
// standing for the client@version; a missing file is no excerpt, and no
// pattern ("") none at all (nil).
func EarlierIn(ctx context.Context, pattern string) func(id string) (*Excerpt, error) {
	if pattern == "" {
		return nil
	}
	return func(id string) (*Excerpt, error) {
		name := strings.ReplaceAll(pattern, "{id}", id)
		if _, err := os.Stat(name); errors.Is(err, fs.ErrNotExist) {
			return nil, nil
		}
		return ReadExcerpt(ctx, name)
	}
}
