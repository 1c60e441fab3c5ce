package atlas

import (
	"bytes"
	"os"
	"path"
	"path/filepath"
	"slices"
	"testing"
)

// root is the repository's root, from this package; the atlases it
// publishes are under its atlas/ (Committed), not under docs/.
const root = "../.."

// committed is the atlas of every version's instructions, the first of them.
const committed = root + "/" + CommittedDir

// TestCommittedAtlas holds each committed atlas to its evidence: atlas.md,
// atlas.json and atlas.html are what "instrlab report -format F DIR"
// writes from atlas.json, byte for byte, and every run directory a value
// links to is there; for atlas/ and each sweep beneath it (Committed).
func TestCommittedAtlas(t *testing.T) {
	dirs, err := Committed(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(dirs) < 3 {
		t.Fatalf("committed atlases %v: want the atlas, the surface's and the budgets'", dirs)
	}
	for _, dir := range dirs {
		t.Run(path.Base(dir), func(t *testing.T) { testCommittedAtlas(t, filepath.Join(root, filepath.FromSlash(dir))) })
	}
}

func testCommittedAtlas(t *testing.T, committed string) {
	a, err := Read(t.Context(), filepath.Join(committed, "atlas.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, format := range Formats {
		want, err := os.ReadFile(filepath.Join(committed, "atlas."+format))
		if err != nil {
			t.Fatal(err)
		}
		var got bytes.Buffer
		if err := a.Write(&got, format); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Bytes(), want) {
			t.Errorf("atlas/atlas.%s is not what instrlab report -format %s atlas writes (%d bytes, want %d): regenerate it", format, format, got.Len(), len(want))
		}
	}
	missing := 0
	for _, tl := range a.Timelines {
		for _, p := range tl.Points {
			dirs := []string{p.Dir}
			for _, prop := range p.Props {
				dirs = append(dirs, prop.Evidence)
			}
			for _, d := range dirs {
				if d == "" {
					continue
				}
				if _, err := os.Stat(filepath.Join(committed, filepath.FromSlash(d))); err != nil {
					missing++
					if missing <= 5 {
						t.Errorf("%s@%s links to %s, which is not in atlas/: %v", tl.Client, p.Version, d, err)
					}
				}
			}
		}
	}
	if missing > 5 {
		t.Errorf("and %d more missing evidence directories", missing-5)
	}
}

// TestCommittedList: the atlas first, then each folder beneath it that
// holds an atlas.json, by name; a run's folder (no atlas.json) and a file
// are not atlases; no atlas.json at the top is an error, not an empty list.
func TestCommittedList(t *testing.T) {
	dir := t.TempDir()
	if _, err := Committed(dir); err == nil {
		t.Error("Committed of a tree without atlas/atlas.json: no error")
	}
	for _, f := range []string{"atlas/atlas.json", "atlas/surface/atlas.json", "atlas/budgets/atlas.json",
		"atlas/claude-code@2.1.332/en-1000/1/run.json", "atlas/README.md"} {
		p := filepath.Join(dir, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("{}"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := Committed(dir)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"atlas", "atlas/budgets", "atlas/surface"}; !slices.Equal(got, want) {
		t.Errorf("Committed = %v, want %v", got, want)
	}
}
