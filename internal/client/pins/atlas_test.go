package pins

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/instrlab/instrlab/internal/atlas"
)

var (
	atlasFile = flag.String("atlas", filepath.Join("..", "..", "..", "atlas", "atlas.json"), "the atlas the pins follow")
	update    = flag.Bool("update", false, "bump pins.json to the atlas's newest runs")
)

// TestPinsFollowTheAtlas: no client's pin is older than the newest release
// the atlas has run of it (atlas.NewestRun). With -update it rewrites
// pins.json instead, and lists the bumps; the atlas workflow runs it on the
// atlas it merged to propose them:
//
//	go test ./internal/client/pins -run TestPinsFollowTheAtlas -atlas PATH -update -v
func TestPinsFollowTheAtlas(t *testing.T) {
	a, err := atlas.Read(t.Context(), *atlasFile)
	if err != nil {
		t.Fatal(err)
	}
	current, err := Parse(file)
	if err != nil {
		t.Fatal(err)
	}
	bumps := Bumps(current, a.NewestRun())
	if !*update {
		for _, b := range bumps {
			t.Errorf("pin %s: the atlas has run %s (go test ./internal/client/pins -run %s -update, then run the client's cross rows on it and compare with instrlab diff)", b, b.To, t.Name())
		}
		return
	}
	for _, b := range bumps {
		t.Logf("bump %s", b)
		current[b.Client] = b.To
	}
	if len(bumps) > 0 {
		if err := os.WriteFile("pins.json", Write(current), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
