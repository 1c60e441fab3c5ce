package npm

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/instrlab/instrlab/internal/filelock"
)

// LimitEnv names the environment variable that bounds the disk the
// installs may take, as in 20GiB or 500MB; unset or 0 means no bound.
const LimitEnv = "INSTRLAB_CACHE_LIMIT"

// Files an install keeps beside its node_modules: when it was last used
// (its modification time orders eviction) and its size in bytes, counted
// once after the install.
const (
	usedFile = ".instrlab-used"
	sizeFile = ".instrlab-size"
)

// Root is the folder that holds every install, one prefix per
// client@version.
func Root() (string, error) {
	base, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("finding the user cache dir: %w", err)
	}
	return filepath.Join(base, "instrlab", "clients"), nil
}

// ParseSize parses a size such as 500MB, 20GiB or 1048576 (bytes).
func ParseSize(s string) (int64, error) {
	s = strings.TrimSpace(s)
	units := []struct {
		suffix string
		mult   int64
	}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"TiB", 1 << 40}, {"KB", 1e3}, {"MB", 1e6}, {"GB", 1e9}, {"TB", 1e12}, {"B", 1}}
	mult := int64(1)
	for _, u := range units {
		if strings.HasSuffix(s, u.suffix) {
			s, mult = strings.TrimSpace(strings.TrimSuffix(s, u.suffix)), u.mult
			break
		}
	}
	n, err := strconv.ParseFloat(s, 64)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("size %q: want a number with an optional unit (B, KB, MB, GB, KiB, MiB, GiB)", s)
	}
	return int64(n * float64(mult)), nil
}

// LimitFromEnv reads LimitEnv; 0 means no bound.
func LimitFromEnv() (int64, error) {
	v := os.Getenv(LimitEnv)
	if v == "" {
		return 0, nil
	}
	n, err := ParseSize(v)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", LimitEnv, err)
	}
	return n, nil
}

// SetLimit bounds the installs of this process and of the processes it
// starts by s, as ParseSize reads it (sweep's -cache-limit), through
// LimitEnv; an empty s keeps the environment's bound, which must read.
func SetLimit(s string) error {
	if s == "" {
		_, err := LimitFromEnv()
		return err
	}
	if _, err := ParseSize(s); err != nil {
		return fmt.Errorf("-cache-limit: %w", err)
	}
	return os.Setenv(LimitEnv, s)
}

// MarkUsed records that the install in dir was used now, and counts its
// size if that was not done yet.
func MarkUsed(dir string) error {
	if _, err := os.Stat(filepath.Join(dir, sizeFile)); errors.Is(err, fs.ErrNotExist) {
		n, err := dirSize(dir)
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, sizeFile), []byte(strconv.FormatInt(n, 10)+"\n"), 0o644); err != nil {
			return fmt.Errorf("recording the size of %s: %w", dir, err)
		}
	}
	p := filepath.Join(dir, usedFile)
	if err := os.WriteFile(p, nil, 0o644); err != nil {
		return fmt.Errorf("marking %s used: %w", dir, err)
	}
	now := time.Now()
	return os.Chtimes(p, now, now)
}

// An Entry is one install in the cache.
type Entry struct {
	Dir  string
	Size int64
	Used time.Time
}

// Entries lists the installs under root that have been marked used,
// least recently used first.
func Entries(root string) ([]Entry, error) {
	entries, err := os.ReadDir(root)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading the install cache: %w", err)
	}
	var out []Entry
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		dir := filepath.Join(root, e.Name())
		st, err := os.Stat(filepath.Join(dir, usedFile))
		if err != nil {
			continue // not finished, or made by an older instrlab: never evicted
		}
		b, _ := os.ReadFile(filepath.Join(dir, sizeFile))
		size, _ := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
		out = append(out, Entry{Dir: dir, Size: size, Used: st.ModTime()})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Used.Before(out[j].Used) })
	return out, nil
}

// Evict removes the least recently used installs under root until the
// installs take at most limit bytes. It never removes one in keep, nor one
// another process holds locked (being installed). It returns what it
// removed; a limit of 0 removes nothing.
func Evict(root string, limit int64, keep ...string) ([]Entry, error) {
	if limit <= 0 {
		return nil, nil
	}
	all, err := Entries(root)
	if err != nil {
		return nil, err
	}
	var total int64
	for _, in := range all {
		total += in.Size
	}
	kept := map[string]bool{}
	for _, k := range keep {
		kept[filepath.Clean(k)] = true
	}
	var removed []Entry
	for _, in := range all {
		if total <= limit {
			break
		}
		if kept[filepath.Clean(in.Dir)] {
			continue
		}
		unlock, ok, _ := filelock.TryLock(in.Dir + ".lock")
		if !ok {
			continue
		}
		err := os.RemoveAll(in.Dir)
		unlock()
		if err != nil {
			return removed, fmt.Errorf("evicting %s: %w", in.Dir, err)
		}
		total -= in.Size
		removed = append(removed, in)
	}
	return removed, nil
}

func dirSize(dir string) (int64, error) {
	var n int64
	err := filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type().IsRegular() {
			info, err := d.Info()
			if err != nil {
				return err
			}
			n += info.Size()
		}
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("counting the size of %s: %w", dir, err)
	}
	return n, nil
}
