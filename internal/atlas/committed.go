package atlas

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
)

// CommittedDir is the folder, from the repository's root, that holds the
// atlases the repository publishes: the atlas of every version's
// instructions in it, each other sweep (the surface, the budgets) in a
// folder of its own beneath it.
const CommittedDir = "atlas"

// Committed lists the atlases committed under root's CommittedDir, as
// paths from root with forward slashes: CommittedDir first, then each
// folder directly beneath it that holds an atlas.json, by name. It is the
// one list of them: the reference, the ranges, the schema's fixtures and
// the site are made from what it gives, so a new sweep joins them all by
// being committed there.
func Committed(root string) ([]string, error) {
	base := filepath.Join(root, CommittedDir)
	if _, err := os.Stat(filepath.Join(base, "atlas.json")); err != nil {
		return nil, fmt.Errorf("the committed atlas: %w", err)
	}
	entries, err := os.ReadDir(base) // by name
	if err != nil {
		return nil, fmt.Errorf("the committed atlases: %w", err)
	}
	var others []string
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		if _, err := os.Stat(filepath.Join(base, e.Name(), "atlas.json")); err == nil {
			others = append(others, e.Name())
		}
	}
	dirs := []string{CommittedDir}
	for _, o := range others {
		dirs = append(dirs, path.Join(CommittedDir, o))
	}
	return dirs, nil
}
