package atlas

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// committed is the atlas the repository publishes: the merged sweeps and
// their evidence, at the top of the tree (not under docs/).
const committed = "../../atlas"

// TestCommittedAtlas holds the committed atlas to its evidence: atlas.md,
// atlas.json and atlas.html are what "instrlab report -format F atlas"
// writes from atlas.json, byte for byte, and every run directory a value
// links to is there; the same for the surface's atlas in atlas/surface/
// and the budgets' in atlas/budgets/.
func TestCommittedAtlas(t *testing.T) {
	for _, dir := range []string{committed, filepath.Join(committed, "surface"), filepath.Join(committed, "budgets")} {
		t.Run(filepath.Base(dir), func(t *testing.T) { testCommittedAtlas(t, dir) })
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
