package derive

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/instrlab/instrlab/internal/client/clients"
	"github.com/instrlab/instrlab/internal/profiles"
)

var update = flag.Bool("update", false, "rewrite the built-in profiles from their committed evidence excerpts")

// excerptPrefix is where a built-in profile's evidence excerpt is, as its
// evidence ref names it from the repository's root.
const excerptPrefix = "internal/profiles/data/evidence/"

// TestBuiltinFromEvidence derives every built-in profile again from the
// evidence excerpt it names (and its annex of documented values, if it
// has one) and fails when the two differ: a built-in
// profile says what its evidence shows, no more, and a change to the
// derivation shows up as a diff of the profiles it changes. Refresh with
// go test ./internal/profiles/derive -run Builtin -update.
func TestBuiltinFromEvidence(t *testing.T) {
	files, err := filepath.Glob("../data/*.json")
	if err != nil || len(files) == 0 {
		t.Fatalf("no built-in profiles: %v", err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			want, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			p, err := profiles.Parse(want)
			if err != nil {
				t.Fatal(err)
			}
			ref := p.Evidence[0].Ref
			if p.Evidence[0].Kind != "instrlab-run" || !strings.HasPrefix(ref, excerptPrefix) {
				t.Fatalf("evidence[0] is %s %s: a built-in profile comes from a run's excerpt under %s", p.Evidence[0].Kind, ref, excerptPrefix)
			}
			x, err := ReadExcerpt(t.Context(), filepath.Join("..", "..", "..", filepath.FromSlash(ref)))
			if err != nil {
				t.Fatal(err)
			}
			ps, err := Profiles(x.Results, Options{Ref: ref, Evidence: x, Display: clients.Display})
			if err != nil {
				t.Fatal(err)
			}
			if len(ps) != 1 || ps[0].ID() != p.ID() {
				t.Fatalf("the excerpt gives %d profiles, want only %s", len(ps), p.ID())
			}
			annex := filepath.Join("..", "..", "..", filepath.FromSlash(strings.TrimSuffix(ref, ".json")+".annex.json"))
			if _, err := os.Stat(annex); err == nil {
				a, err := ReadAnnex(t.Context(), annex)
				if err != nil {
					t.Fatal(err)
				}
				if err := a.Apply(&ps[0]); err != nil {
					t.Fatal(err)
				}
			}
			// Budgets are the one part a run's excerpt does not give:
			// instrlab budget -profile writes them, each with the command,
			// date, runs and load it was measured with.
			for _, b := range p.Budgets {
				if b.Command == "" || b.Date == "" || b.Runs == 0 {
					t.Errorf("budget %s: measured with %q on %q in %d runs: a budget names its command, date and runs", b.Name, b.Command, b.Date, b.Runs)
				}
			}
			ps[0].Budgets = p.Budgets
			got, err := profiles.Encode(ps[0])
			if err != nil {
				t.Fatal(err)
			}
			if *update {
				if err := os.WriteFile(f, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			if diff := cmp.Diff(string(want), string(got)); diff != "" {
				t.Errorf("%s is not what its evidence gives (-committed +derived):\n%s", f, diff)
			}
		})
	}
}
