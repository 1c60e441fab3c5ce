package npm

import (
	"os"
	"path/filepath"
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
